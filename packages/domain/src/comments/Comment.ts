import type { User } from "../identity/User.js"
import { Schema } from "effect"
import { JSONDocumentInput } from "../content/Page.js"
import { ChangeRequestId, CommentId, CommentReplyId, PageId, RevisionId, SpaceId, UserId } from "../shared/Ids.js"
import { boundedArray, boundedString, StoredString } from "../shared/Limits.js"

// Change request comments (conventions-2.md §3): threads of a comment and its replies, with
// reactions, on a change request; a comment may point at a page or a block of a page.

export const CommentStatus = Schema.Literal("open", "resolved")
export type CommentStatus = typeof CommentStatus.Type

/** The longest comment or reply body, in characters of markdown. */
export const MAX_COMMENT_LENGTH = 20_000
/** The most reactions one update may add, and the most it may remove. */
export const MAX_REACTIONS_PER_UPDATE = 20
/** The longest preview of a block kept with a comment on it. */
export const MAX_NODE_PREVIEW = 200

export const Comment = Schema.Struct({
  id: CommentId,
  spaceId: SpaceId,
  changeRequestId: ChangeRequestId,
  postedBy: UserId,
  postedAt: Schema.DateFromSelf,
  /** When the body last changed; absent until it does. */
  editedAt: Schema.optional(Schema.DateFromSelf),
  /** The body, as markdown. */
  body: Schema.String,
  status: CommentStatus,
  resolvedAt: Schema.optional(Schema.DateFromSelf),
  resolvedBy: Schema.optional(UserId),
  /** The change request's revision when the comment was posted. */
  revisionId: RevisionId,
  /** The page it is about; for a comment on a block, the block's page. */
  pageId: Schema.optional(PageId),
  /** The block it is about: its key and its text when the comment was posted. */
  node: Schema.optional(Schema.Struct({ id: Schema.String, preview: Schema.String })),
  /** How many replies it has: kept by storage as replies come and go. */
  replies: Schema.Number
})
export type Comment = typeof Comment.Type

export const CommentReply = Schema.Struct({
  id: CommentReplyId,
  commentId: CommentId,
  spaceId: SpaceId,
  changeRequestId: ChangeRequestId,
  postedBy: UserId,
  postedAt: Schema.DateFromSelf,
  editedAt: Schema.optional(Schema.DateFromSelf),
  body: Schema.String
})
export type CommentReply = typeof CommentReply.Type

/** One user's reaction with one emoji to a comment or a reply (`subjectId`). */
export interface Reaction {
  readonly subjectId: CommentId | CommentReplyId
  readonly userId: UserId
  readonly emoji: string
  readonly reactedAt: Date
}

/** What posted replies add up to per author on a comment (GitBook's `repliers`). */
export interface Replier {
  readonly userId: UserId
  readonly count: number
  /** When the author last replied. */
  readonly updatedAt: Date
}

/** GitBook's `Document` as a body: `{markdown}` or `{document}`; it must hold some text. */
export const CommentBody = Schema.Struct({
  markdown: Schema.optional(StoredString),
  document: Schema.optional(JSONDocumentInput)
})
export type CommentBody = typeof CommentBody.Type

const Reactions = Schema.optional(boundedArray(boundedString({ min: 1, max: 64 }), { max: MAX_REACTIONS_PER_UPDATE }))

export const PostCommentInput = Schema.Struct({
  /** A page of the change request's current revision. */
  page: Schema.optional(boundedString({ min: 1, max: 64 })),
  /** A block key of a page; without `page`, its page is looked up. */
  node: Schema.optional(boundedString({ min: 1, max: 64 })),
  body: CommentBody
})
export type PostCommentInput = typeof PostCommentInput.Type

export const UpdateCommentInput = Schema.Struct({
  resolved: Schema.optional(Schema.Boolean),
  body: Schema.optional(CommentBody),
  addedReactions: Reactions,
  removedReactions: Reactions
})
export type UpdateCommentInput = typeof UpdateCommentInput.Type

export const PostReplyInput = Schema.Struct({ body: CommentBody })
export type PostReplyInput = typeof PostReplyInput.Type

/** As for a comment; `resolved` is checked for its type and has no effect on a reply. */
export const UpdateReplyInput = UpdateCommentInput
export type UpdateReplyInput = typeof UpdateReplyInput.Type

/** What the caller may do with a comment or a reply (GitBook's `permissions`). */
export interface CommentPermissions {
  readonly view: boolean
  readonly edit: boolean
  readonly reply: boolean
  readonly delete: boolean
  /** Resolve or reopen (comments only). */
  readonly resolve: boolean
}

/** The users who reacted with one emoji, in the order they did. */
export interface ReactionGroup {
  readonly emoji: string
  readonly users: ReadonlyArray<{ readonly user: User; readonly reactedAt: Date }>
}

/** What a comment points at, as the change request's current revision holds it. */
export interface TargetPage {
  readonly id: PageId
  readonly title?: string | undefined
  readonly emoji?: string | undefined
  readonly icon?: string | undefined
  readonly createdAt?: Date | undefined
  readonly updatedAt?: Date | undefined
  readonly path?: string | undefined
  /** The page is gone from the current revision, or the block is gone or its text changed. */
  readonly outdated: boolean
}

/** A comment as read. */
export interface CommentView {
  readonly comment: Comment
  readonly postedBy?: User | undefined
  readonly resolvedBy?: User | undefined
  readonly reactions: ReadonlyArray<ReactionGroup>
  readonly repliers: ReadonlyArray<{ readonly user: User; readonly count: number; readonly updatedAt: Date }>
  readonly page?: TargetPage | undefined
  readonly permissions: CommentPermissions
}

/** A reply as read. */
export interface ReplyView {
  readonly reply: CommentReply
  readonly postedBy?: User | undefined
  readonly reactions: ReadonlyArray<ReactionGroup>
  readonly permissions: CommentPermissions
}
