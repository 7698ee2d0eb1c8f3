import { Context, type Effect, type Option } from "effect"
import type { ChangeRequestKey, SpaceWithChangeRequest } from "../content/Ports.js"
import type { ChangeRequestId, CommentId, CommentReplyId, PageId, SpaceId, UserId } from "../shared/Ids.js"
import type { Order, Page, PageRequest } from "../shared/Pagination.js"
import type { User } from "../identity/User.js"
import type { Comment, CommentReply, CommentStatus, Reaction, Replier } from "./Comment.js"

/** Which of a change request's comments a list holds. */
export interface CommentFilter {
  readonly status?: CommentStatus | undefined
  /** Comments on the page or on its blocks. */
  readonly pageId?: PageId | undefined
  /** Comments posted by any of these users; absent or empty, by anyone. */
  readonly authors?: ReadonlyArray<UserId> | undefined
}

/**
 * Comments, their replies and reactions, and the counters kept of them. The use cases call it
 * inside a unit of work holding the space's lock; each counter moves in the same transaction as
 * the change it counts.
 */
export class CommentRepository extends Context.Tag("@octavo/domain/CommentRepository")<CommentRepository, {
  readonly insert: (comment: Comment) => Effect.Effect<void>
  /** Writes the body, `editedAt`, the status and its `resolvedAt` and `resolvedBy`; `replies` is storage's to keep. */
  readonly update: (comment: Comment) => Effect.Effect<void>
  /** Removes the comment with its replies and every reaction to either. */
  readonly remove: (id: CommentId) => Effect.Effect<void>
  readonly findById: (id: CommentId) => Effect.Effect<Option.Option<Comment>>
  /** Keyset over (postedAt ms, id), in `order`. `count` is of every comment the filter holds. */
  readonly list: (
    changeRequestId: ChangeRequestId,
    filter: CommentFilter,
    order: Order,
    page: PageRequest
  ) => Effect.Effect<Page<Comment>>

  /** Adds the reply and counts it in its comment's `replies`. */
  readonly insertReply: (reply: CommentReply) => Effect.Effect<void>
  /** Writes the body and `editedAt`. */
  readonly updateReply: (reply: CommentReply) => Effect.Effect<void>
  /** Removes the reply and its reactions, and uncounts it from its comment's `replies`. */
  readonly removeReply: (id: CommentReplyId) => Effect.Effect<void>
  readonly findReply: (id: CommentReplyId) => Effect.Effect<Option.Option<CommentReply>>
  /** Keyset over (postedAt ms, id), oldest first. */
  readonly listReplies: (commentId: CommentId, page: PageRequest) => Effect.Effect<Page<CommentReply>>
  /** Who replied to each of the comments, how often and when last; comments without replies are absent. */
  readonly repliersOf: (commentIds: ReadonlyArray<CommentId>) => Effect.Effect<ReadonlyMap<CommentId, ReadonlyArray<Replier>>>

  /**
   * Adds `added` (a reaction the user has already is kept as it was) and then removes `removed`
   * (one that is not there is no change) on the subject, a comment or a reply of `commentId`.
   */
  readonly react: (
    commentId: CommentId,
    subjectId: CommentId | CommentReplyId,
    userId: UserId,
    changes: { readonly added: ReadonlyArray<string>; readonly removed: ReadonlyArray<string>; readonly at: Date }
  ) => Effect.Effect<void>
  /** The reactions to each subject, in the order they were made (then by user id and emoji). */
  readonly reactionsOf: (
    subjectIds: ReadonlyArray<CommentId | CommentReplyId>
  ) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<Reaction>>>

  /** How many open comments each of the change requests has; those with none are absent. */
  readonly openByChangeRequest: (changeRequestIds: ReadonlyArray<ChangeRequestId>) => Effect.Effect<ReadonlyMap<ChangeRequestId, number>>

  /** Moves the space's count of open top-level comments by `delta`. */
  readonly countOpen: (spaceId: SpaceId, delta: number) => Effect.Effect<void>
  /** The counts of open comments of those spaces that have any; the others count zero. */
  readonly openCounts: (spaceIds: ReadonlyArray<SpaceId>) => Effect.Effect<ReadonlyMap<SpaceId, number>>
}>() {}

/** What to read for views of comments or replies (`CommentViewFacts`). */
export interface CommentFactsAsked {
  /** The comments and replies whose reactions are shown. */
  readonly subjects: ReadonlyArray<CommentId | CommentReplyId>
  /** The comments whose repliers are shown. */
  readonly repliersOf: ReadonlyArray<CommentId>
  /** The users shown besides those who reacted or replied (authors, resolvers). */
  readonly users: ReadonlyArray<UserId>
}

/** What views of comments show besides the comments, as the storage holds it. */
export interface CommentFacts {
  /** As `CommentRepository.reactionsOf` answers for the subjects. */
  readonly reactions: ReadonlyMap<string, ReadonlyArray<Reaction>>
  /** As `CommentRepository.repliersOf` answers for the comments. */
  readonly repliers: ReadonlyMap<CommentId, ReadonlyArray<Replier>>
  /** Those that exist of the users asked for and of everyone who reacted or replied, by id. */
  readonly users: ReadonlyMap<UserId, User>
}

/**
 * Reactions, repliers and the people of both, for views of comments. A storage that can read them
 * in one round trip answers it so; the others answer it with `CommentViewFactsOneByOne`.
 */
export class CommentViewFacts extends Context.Tag("@octavo/domain/CommentViewFacts")<CommentViewFacts, {
  readonly of: (asked: CommentFactsAsked) => Effect.Effect<CommentFacts>
}>() {}

/** A space read with its access and one of its change requests (`SpaceChangeRequestReads`), with a comment of it. */
export interface SpaceWithComment extends SpaceWithChangeRequest {
  /** The comment of that id, when it is the change request's. */
  readonly comment: Option.Option<Comment>
  /** The reply of that id, when one was asked for and it is the comment's. */
  readonly reply: Option.Option<CommentReply>
}

/**
 * What every use case on a comment reads first: the space with its access, the change request,
 * the comment and, for one on a reply, the reply. A storage that can read them in one round trip
 * answers it so; the others answer it with `SpaceCommentReadsOneByOne`.
 */
export class SpaceCommentReads extends Context.Tag("@octavo/domain/SpaceCommentReads")<SpaceCommentReads, {
  /** As `SpaceChangeRequestReads.find` answers, with the comment and the reply of those ids (as `findById` and `findReply`). */
  readonly find: (
    spaceId: SpaceId,
    userId: UserId,
    key: ChangeRequestKey,
    commentId: CommentId,
    replyId: Option.Option<CommentReplyId>
  ) => Effect.Effect<Option.Option<SpaceWithComment>>
}>() {}

/** The storage the comments context owns. */
export type CommentsPorts = CommentRepository
