import type { UserId } from "../shared/Ids.js"
import { atLeast, type Role } from "../shared/Role.js"
import type { CommentPermissions } from "./Comment.js"

/**
 * Who may do what with a comment or a reply (conventions-2.md §3), from the caller's level in the
 * space and whether they wrote it:
 * read with `read`; post, reply and react with `comment`; edit the body as its author or a space
 * admin; resolve or reopen as its author or with `review`; delete as its author or an admin.
 * Replying also needs a change request that takes new comments (`open`: draft or open).
 */
export const commentPermissions = (
  level: Role | null,
  caller: UserId,
  author: UserId,
  open: boolean
): CommentPermissions => {
  const own = caller === author && atLeast(level, "read")
  return {
    view: atLeast(level, "read"),
    edit: own || atLeast(level, "admin"),
    reply: open && atLeast(level, "comment"),
    delete: own || atLeast(level, "admin"),
    resolve: own || atLeast(level, "review")
  }
}

/** Whether the caller may react: reactions are their own, with `comment`, on any change request. */
export const mayReact = (level: Role | null): boolean => atLeast(level, "comment")

/** Whether a change request in this status takes new comments and replies. */
export const takesComments = (status: string): boolean => status === "draft" || status === "open"
