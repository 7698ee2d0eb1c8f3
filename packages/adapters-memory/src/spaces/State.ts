import type { Collection, CustomField, CustomFieldId, CustomFieldValue, Revision, Space, SpaceId } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the spaces context keeps in memory. */
export const SpacesState = slice("@octavo/adapters-memory/spaces", {
  collections: HashMap.empty<string, Collection>(),
  spaces: HashMap.empty<string, Space>(),
  revisions: HashMap.empty<string, Revision>(),
  customFields: HashMap.empty<string, CustomField>(),
  /** Keyed by `pairKey(spaceId, fieldId)`. */
  customFieldValues: HashMap.empty<
    string,
    { readonly spaceId: SpaceId; readonly fieldId: CustomFieldId; readonly value: CustomFieldValue }
  >()
})
