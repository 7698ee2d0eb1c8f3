import { Effect, Option } from "effect"
import { ChangeRequests } from "../content/ChangeRequestService.js"
import { RevisionContents } from "../content/RevisionContents.js"
import { Actor } from "../identity/Actor.js"
import { NotFound } from "../shared/Errors.js"
import { CommentReplyId, type SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { type CommentReply, PostReplyInput, type ReplyView, UpdateReplyInput } from "./Comment.js"
import { makeCommentViews } from "./CommentViews.js"
import { makeCommentWork } from "./CommentWork.js"
import { commentPermissions, takesComments } from "./Policy.js"
import { CommentRepository } from "./Ports.js"
import { reactionChanges } from "./Reactions.js"

/**
 * Replies to change request comments (conventions-2.md §3), and the actor's reactions to them. Writes
 * take the space's lock, as `Comments`' do.
 */
export class CommentReplies extends Effect.Service<CommentReplies>()("@octavo/domain/CommentReplies", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const changeRequestService = yield* ChangeRequests
    const contents = yield* RevisionContents
    const comments = yield* CommentRepository
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const { bodyOf, editBody, findComment, findReply, locateComment, lockChangeRequest, requireMay, requireTakesComments } =
      yield* makeCommentWork
    const { replyView, replyViews } = yield* makeCommentViews

    const listReplies = (spaceId: SpaceId, reference: string, commentId: string, page: PageRequest) =>
      Effect.gen(function*() {
        const { changeRequest, comment, grant } = yield* locateComment(spaceId, reference, commentId)
        const found = yield* comments.listReplies(comment.id, page)
        return { ...found, items: yield* replyViews(grant, changeRequest, found.items) } satisfies Page<ReplyView>
      })

    const getReply = (spaceId: SpaceId, reference: string, commentId: string, replyId: string) =>
      Effect.gen(function*() {
        const { changeRequest, grant, reply } = yield* locateComment(spaceId, reference, commentId, replyId)
        if (Option.isNone(reply)) return yield* new NotFound({ entity: "comment reply", id: replyId })
        return yield* replyView(grant, changeRequest, reply.value)
      })

    /** Replies to a comment: `comment` level, on a change request that takes comments. */
    const reply = (spaceId: SpaceId, reference: string, commentId: string, input: PostReplyInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(PostReplyInput)(input)
        const { grant, changeRequest } = yield* changeRequestService.locate(spaceId, reference)
        yield* guard.require(grant, "comment", "reply to comments in this space")
        const actor = yield* Actor
        return yield* uow.transaction(Effect.gen(function*() {
          const current = yield* lockChangeRequest(changeRequest)
          const comment = yield* findComment(current, commentId)
          yield* requireTakesComments(current)
          const body = yield* bodyOf(valid.body, "body", contents.load(current.revisionId), comment.pageId ?? null)
          const reply: CommentReply = {
            id: CommentReplyId.make(yield* secrets.newId),
            commentId: comment.id,
            spaceId,
            changeRequestId: current.id,
            postedBy: actor.id,
            postedAt: yield* now,
            body
          }
          yield* comments.insertReply(reply)
          return yield* replyView(grant, current, reply)
        }))
      })

    /** Edits a reply's body (its author or an admin) and the actor's reactions to it; `resolved` has no effect. */
    const updateReply = (spaceId: SpaceId, reference: string, commentId: string, replyId: string, input: UpdateReplyInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateReplyInput)(input)
        const reactions = yield* reactionChanges(valid)
        const { grant, changeRequest } = yield* changeRequestService.locate(spaceId, reference)
        const actor = yield* Actor
        return yield* uow.transaction(Effect.gen(function*() {
          const current = yield* lockChangeRequest(changeRequest)
          const comment = yield* findComment(current, commentId)
          const reply = yield* findReply(comment, replyId)
          const may = commentPermissions(grant.level, actor.id, reply.postedBy, takesComments(current.status))
          const reacting = reactions.added.length + reactions.removed.length > 0
          const at = yield* now
          const updated = yield* editBody(reply, "reply", { body: valid.body, reacting }, { may, level: grant.level }, {
            comment,
            changeRequest: current,
            at
          })
          if (updated !== reply) yield* comments.updateReply(updated)
          if (reacting) yield* comments.react(comment.id, reply.id, actor.id, { ...reactions, at })
          return yield* replyView(grant, current, updated)
        }))
      })

    /** Deletes a reply and its reactions: its author or an admin. */
    const removeReply = (spaceId: SpaceId, reference: string, commentId: string, replyId: string) =>
      Effect.gen(function*() {
        const { grant, changeRequest } = yield* changeRequestService.locate(spaceId, reference)
        const actor = yield* Actor
        yield* uow.transaction(Effect.gen(function*() {
          const current = yield* lockChangeRequest(changeRequest)
          const comment = yield* findComment(current, commentId)
          const reply = yield* findReply(comment, replyId)
          const may = commentPermissions(grant.level, actor.id, reply.postedBy, takesComments(current.status))
          yield* requireMay(may.delete, "delete this reply", "being its author or the admin level")
          yield* comments.removeReply(reply.id)
        }))
      })

    return { listReplies, getReply, reply, updateReply, removeReply } as const
  })
}) {}
