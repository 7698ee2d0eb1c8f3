import { Layer } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { CollectionsApi } from "./CollectionsApi.js"
import { CollectionsLive } from "./CollectionsHandlers.js"
import { CustomFieldsApi } from "./CustomFieldsApi.js"
import { CustomFieldsLive } from "./CustomFieldsHandlers.js"
import { SpacesApi } from "./SpacesApi.js"
import { SpacesLive } from "./SpacesHandlers.js"
import { PurgeExpiredSpaces } from "./Jobs.js"

/** Spaces over HTTP: collections, spaces and custom fields. */
export const SpacesGroups = OctavoBase.add(CollectionsApi).add(SpacesApi).add(CustomFieldsApi)
export const SpacesHandlers = Layer.mergeAll(CollectionsLive, SpacesLive, CustomFieldsLive)
export { SpaceWireFields } from "./Present.js"

/** The spaces context's part of the HTTP API (the list in ../Contexts.ts). */
export const SpacesHttp = {
  groups: SpacesGroups,
  handlers: SpacesHandlers,
  jobs: [PurgeExpiredSpaces]
}
