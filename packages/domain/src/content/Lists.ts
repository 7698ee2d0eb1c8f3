import type { FileId, PageId, SpaceId } from "../shared/Ids.js"
import { listKey, type ListKey } from "../shared/Pagination.js"
import type { ChangeRequestStatus } from "./ChangeRequest.js"

// The keys of the content lists: each names what chooses its items and says how its keyset sorts.
// `changeRequest` is the change request as the path names it (id or number); absent, the space's live content.

/** A space's change requests, by creation time, with the status filter. */
export const changeRequestListKey = (spaceId: SpaceId, status: ChangeRequestStatus | undefined): ListKey =>
  listKey("change-requests", "number", spaceId, status)

/** The files of a space's content or of a change request's, by the time they were added. */
export const fileListKey = (spaceId: SpaceId, changeRequest?: string): ListKey => listKey("files", "number", spaceId, changeRequest)

/** The links of a space's content or a change request's, of all pages or of one, by their index in the content. */
export const linkListKey = (
  spaceId: SpaceId,
  filter: { readonly changeRequest?: string | undefined; readonly page?: PageId | undefined; readonly status?: string | undefined }
): ListKey => listKey("links", "number", spaceId, filter.changeRequest, filter.page, filter.status)

/** The pages that use a file, by their creation time. */
export const backlinkListKey = (spaceId: SpaceId, fileId: FileId, changeRequest?: string): ListKey =>
  listKey("backlinks", "number", spaceId, fileId, changeRequest)
