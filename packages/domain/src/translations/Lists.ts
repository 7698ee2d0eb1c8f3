import type { OrganizationId } from "../shared/Ids.js"
import { listKey, type ListKey } from "../shared/Pagination.js"

/** An organization's translation settings, by (createdAt, id). */
export const translationSettingsListKey = (organizationId: OrganizationId): ListKey =>
  listKey("translation-settings", "number", organizationId)
