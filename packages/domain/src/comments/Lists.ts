import type { CommentStatus } from "./Comment.js"
import { listKey, type ListKey, type Order } from "../shared/Pagination.js"
import type { SpaceId } from "../shared/Ids.js"

/** A change request's comments (as the path names it: id or number), by (postedAt, id), with the filters and the order. */
export const commentListKey = (
  spaceId: SpaceId,
  changeRequest: string,
  filter: {
    readonly status?: CommentStatus | undefined
    readonly page?: string | undefined
    readonly authors?: ReadonlyArray<string> | undefined
  },
  order: Order
): ListKey => listKey("comments", "number", spaceId, changeRequest, filter.status, filter.page, filter.authors?.join(","), order)

/** A comment's replies, oldest first. */
export const replyListKey = (spaceId: SpaceId, changeRequest: string, commentId: string): ListKey =>
  listKey("comment-replies", "number", spaceId, changeRequest, commentId)
