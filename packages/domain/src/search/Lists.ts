import type { OrganizationId, SpaceId } from "../shared/Ids.js"
import { listKey, type ListKey } from "../shared/Pagination.js"

// The keys of the search lists: bound to the query, so that a token is good for the search it came from.

/** Pages of a space that match `query`, by their page key (rank, then path: a string). */
export const spaceSearchListKey = (spaceId: SpaceId, query: string): ListKey => listKey("space-search", "string", spaceId, query)

/** Spaces of an organization with matching pages, by their best rank (a number). */
export const organizationSearchListKey = (organizationId: OrganizationId, query: string): ListKey =>
  listKey("organization-search", "number", organizationId, query)
