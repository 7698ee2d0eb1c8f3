import {
  type CommentPermissions,
  type CommentView,
  markdownToDocument,
  type ReactionGroup,
  type ReplyView,
  type User,
  type UserId
} from "@octavo/domain"
import { presentUser, userLocation } from "../identity/Present.js"
import type { CommentObject, CommentReplyObject } from "./Wire.js"

/** The body of a comment or a reply: markdown (the default), or a document tree. */
export type BodyFormat = "markdown" | "document"

/** Wire shapes of comments and replies, with absolute URLs from `base`. */
export const commentPresenters = (base: string) => {
  const user = presentUser(base)
  /** A user the domain no longer knows is named by its id. */
  const person = (found: User | undefined, id: UserId) =>
    found === undefined ? { object: "user" as const, id, displayName: "", urls: { location: userLocation(base, id) } } : user(found)

  const reactions = (groups: ReadonlyArray<ReactionGroup>) =>
    groups.map((group) => ({
      emoji: group.emoji,
      count: group.users.length,
      users: group.users.map((reacted) => ({ user: user(reacted.user), reactedAt: reacted.reactedAt }))
    }))

  const body = (markdown: string, format: BodyFormat | undefined) =>
    format === "document" ? { document: markdownToDocument(markdown) } : { markdown }

  // GitBook's permissions have no `resolve`: that one is the domain's.
  const permissions = ({ delete: remove, edit, reply, view }: CommentPermissions) => ({ view, edit, reply, delete: remove })

  /** Where a change request's comments live: by the change request's id, whatever the path named. */
  const commentLocation = (c: { readonly spaceId: string; readonly changeRequestId: string; readonly id: string }) =>
    `${base}/v1/spaces/${c.spaceId}/change-requests/${c.changeRequestId}/comments/${c.id}`

  const presentComment = (format: BodyFormat | undefined) => (view: CommentView): typeof CommentObject.Type => {
    const { comment: c } = view
    return {
      object: "comment",
      id: c.id,
      postedBy: person(view.postedBy, c.postedBy),
      postedAt: c.postedAt,
      ...(c.editedAt !== undefined ? { editedAt: c.editedAt } : {}),
      reactions: reactions(view.reactions),
      replies: c.replies,
      repliers: view.repliers.map((r) => ({ user: user(r.user), count: r.count, updatedAt: r.updatedAt })),
      body: body(c.body, format),
      target: {
        changeRequest: c.changeRequestId,
        space: c.spaceId,
        revision: c.revisionId,
        ...(view.page !== undefined
          ? {
            page: {
              id: view.page.id,
              ...(view.page.title !== undefined ? { title: view.page.title } : {}),
              ...(view.page.emoji !== undefined ? { emoji: view.page.emoji } : {}),
              ...(view.page.icon !== undefined ? { icon: view.page.icon } : {}),
              ...(view.page.createdAt !== undefined ? { createdAt: view.page.createdAt } : {}),
              ...(view.page.updatedAt !== undefined ? { updatedAt: view.page.updatedAt } : {}),
              ...(view.page.path !== undefined ? { path: view.page.path } : {}),
              outdated: view.page.outdated
            }
          }
          : {}),
        ...(c.node !== undefined ? { node: { id: c.node.id, preview: c.node.preview } } : {})
      },
      urls: { location: commentLocation(c) },
      permissions: permissions(view.permissions),
      status: c.status,
      ...(c.status === "resolved" && c.resolvedAt !== undefined ? { resolvedAt: c.resolvedAt } : {}),
      ...(c.status === "resolved" && c.resolvedBy !== undefined ? { resolvedBy: person(view.resolvedBy, c.resolvedBy) } : {})
    }
  }

  const presentReply = (format: BodyFormat | undefined) => (view: ReplyView): typeof CommentReplyObject.Type => {
    const { reply: r } = view
    return {
      object: "comment-reply",
      id: r.id,
      postedBy: person(view.postedBy, r.postedBy),
      postedAt: r.postedAt,
      ...(r.editedAt !== undefined ? { editedAt: r.editedAt } : {}),
      reactions: reactions(view.reactions),
      body: body(r.body, format),
      urls: { location: `${commentLocation({ ...r, id: r.commentId })}/replies/${r.id}` },
      permissions: permissions(view.permissions)
    }
  }

  return { presentComment, presentReply }
}
