import type { CollectionId, OrganizationId, UserId } from "../shared/Ids.js"
import { listKey, type ListKey, type Order } from "../shared/Pagination.js"

// The keys of the spaces context's lists: each names what chooses its items and says how its keyset sorts.

/** An organization's collections: all of them by creation time (nested), or its top level in sibling order. */
export const collectionListKey = (organizationId: OrganizationId, nested: boolean): ListKey =>
  nested ? listKey("collections", "number", organizationId) : listKey("top-collections", "string", organizationId)

/** The spaces directly in a collection, in sibling order. */
export const collectionSpacesListKey = (collectionId: CollectionId): ListKey => listKey("collection-spaces", "string", collectionId)

/** An organization's spaces, by creation time. */
export const spaceListKey = (organizationId: OrganizationId): ListKey => listKey("spaces", "number", organizationId)

/** The spaces of an organization with a member's permission in each, by creation time in `order`. */
export const memberSpacesListKey = (organizationId: OrganizationId, userId: UserId, order: Order): ListKey =>
  listKey("member-spaces", "number", organizationId, userId, order)

/** An organization's custom fields, by creation time. */
export const customFieldListKey = (organizationId: OrganizationId): ListKey => listKey("custom-fields", "number", organizationId)
