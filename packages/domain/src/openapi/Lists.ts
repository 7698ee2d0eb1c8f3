import type { OrganizationId } from "../shared/Ids.js"
import { listKey, type ListKey } from "../shared/Pagination.js"

/** An organization's specs, by (createdAt, id). */
export const specListKey = (organizationId: OrganizationId): ListKey => listKey("openapi-specs", "number", organizationId)

/** A spec's versions, newest first, by (number, id). */
export const specVersionListKey = (organizationId: OrganizationId, slug: string): ListKey =>
  listKey("openapi-spec-versions", "number", organizationId, slug)
