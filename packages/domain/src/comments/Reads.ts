import { Effect, Layer, Option } from "effect"
import { ChangeRequestViewFacts, SpaceChangeRequestReads } from "../content/Ports.js"
import { UserRepository } from "../identity/Ports.js"
import type { User } from "../identity/User.js"
import { CommentRepository, CommentViewFacts, SpaceCommentReads } from "./Ports.js"

// The comments context's reads that take earlier contexts' rows with its own, over the repositories one read after
// the other; a storage that reads them in one round trip answers the same ports so.

/** `SpaceCommentReads` over `SpaceChangeRequestReads` and the comments' repository, one read after the other. */
export const SpaceCommentReadsOneByOne = Layer.effect(
  SpaceCommentReads,
  Effect.gen(function*() {
    const reads = yield* SpaceChangeRequestReads
    const comments = yield* CommentRepository
    return SpaceCommentReads.of({
      find: (spaceId, userId, key, commentId, replyId) =>
        Effect.flatMap(reads.find(spaceId, userId, key), (found) =>
          Effect.gen(function*() {
            if (Option.isNone(found)) return Option.none()
            const changeRequest = found.value.changeRequest
            const comment = Option.isNone(changeRequest)
              ? Option.none()
              : Option.filter(yield* comments.findById(commentId), (c) => c.changeRequestId === changeRequest.value.id)
            const reply = Option.isNone(comment) || Option.isNone(replyId)
              ? Option.none()
              : Option.filter(yield* comments.findReply(replyId.value), (r) => r.commentId === comment.value.id)
            return Option.some({ ...found.value, comment, reply })
          }))
    })
  })
)

/** The users of `ids` that exist, by id, in one lookup. */
const usersById = (users: UserRepository["Type"], ids: Iterable<User["id"]>) =>
  Effect.map(users.findManyByIds([...new Set(ids)]), (found) => new Map(found.map((user) => [user.id, user])))

/**
 * The content context's `ChangeRequestViewFacts` (their authors and open comments), answered here over the users' and
 * the comments' repositories, one read after the other.
 */
export const ChangeRequestViewFactsOneByOne = Layer.effect(
  ChangeRequestViewFacts,
  Effect.gen(function*() {
    const users = yield* UserRepository
    const comments = yield* CommentRepository
    return ChangeRequestViewFacts.of({
      of: (changeRequests) =>
        Effect.all({
          authors: usersById(users, changeRequests.map((cr) => cr.createdBy)),
          openComments: comments.openByChangeRequest(changeRequests.map((cr) => cr.id))
        })
    })
  })
)

/** `CommentViewFacts` over the comments' and the users' repositories, one read after the other. */
export const CommentViewFactsOneByOne = Layer.effect(
  CommentViewFacts,
  Effect.gen(function*() {
    const users = yield* UserRepository
    const comments = yield* CommentRepository
    return CommentViewFacts.of({
      of: (asked) =>
        Effect.gen(function*() {
          const reactions = yield* comments.reactionsOf(asked.subjects)
          const repliers = yield* comments.repliersOf(asked.repliersOf)
          const people = yield* usersById(users, [
            ...asked.users,
            ...[...reactions.values()].flat().map((r) => r.userId),
            ...[...repliers.values()].flat().map((r) => r.userId)
          ])
          return { reactions, repliers, users: people }
        })
    })
  })
)
