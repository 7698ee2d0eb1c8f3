import { Effect, Option, Schema } from "effect"
import { ChangeRequests } from "../content/ChangeRequestService.js"
import { RevisionContents } from "../content/RevisionContents.js"
import { Actor } from "../identity/Actor.js"
import { InvalidInput } from "../shared/Errors.js"
import { HeavyWork } from "../shared/HeavyWork.js"
import { CommentId, PageId, UserId } from "../shared/Ids.js"
import type { SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { Order, Page, PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import {
  type Comment,
  type CommentStatus,
  type CommentView,
  MAX_NODE_PREVIEW,
  PostCommentInput,
  UpdateCommentInput
} from "./Comment.js"
import { blockReader, makeCommentViews } from "./CommentViews.js"
import { makeCommentWork } from "./CommentWork.js"
import { commentPermissions, takesComments } from "./Policy.js"
import { CommentRepository } from "./Ports.js"
import { reactionChanges } from "./Reactions.js"

/** Which comments a list holds, as the caller asks: ids not yet checked. */
export interface CommentQuery {
  readonly status?: CommentStatus | "all" | undefined
  readonly targetPage?: string | undefined
  readonly authors?: ReadonlyArray<string> | undefined
  readonly order?: Order | undefined
}

/**
 * Change request comments (conventions-2.md §3): threads, resolving, and the actor's reactions to
 * them; their replies are `CommentReplies`. Writes take the space's lock, so that they queue behind
 * merges and each other, and keep the counters in the same unit of work.
 */
export class Comments extends Effect.Service<Comments>()("@octavo/domain/Comments", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const changeRequestService = yield* ChangeRequests
    const contents = yield* RevisionContents
    const comments = yield* CommentRepository
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const work = yield* HeavyWork
    const { bodyOf, editBody, findComment, locateComment, lockChangeRequest, requireMay, requireTakesComments } = yield* makeCommentWork
    const { viewOne, views } = yield* makeCommentViews

    const isPageId = Schema.is(PageId)
    const isUserId = Schema.is(UserId)

    /** The comments of a change request the actor can read, filtered and in order. */
    const list = (spaceId: SpaceId, reference: string, query: CommentQuery, page: PageRequest) =>
      Effect.gen(function*() {
        const { grant, changeRequest } = yield* changeRequestService.locate(spaceId, reference)
        // A page or an author that is no id names nothing: the list is empty, not an error.
        const pageId = query.targetPage === undefined ? undefined : isPageId(query.targetPage) ? query.targetPage : null
        const asked = (query.authors ?? []).filter((id) => id !== "")
        const authors = asked.filter(isUserId)
        if (pageId === null || (asked.length > 0 && authors.length === 0)) {
          return { items: [], count: 0, next: Option.none() } satisfies Page<CommentView>
        }
        const found = yield* comments.list(
          changeRequest.id,
          {
            status: query.status === "all" ? undefined : query.status,
            pageId,
            authors: authors.length === 0 ? undefined : authors
          },
          query.order ?? "desc",
          page
        )
        return { ...found, items: yield* views(grant, changeRequest, found.items) } satisfies Page<CommentView>
      })

    const get = (spaceId: SpaceId, reference: string, commentId: string) =>
      Effect.gen(function*() {
        const { changeRequest, comment, grant } = yield* locateComment(spaceId, reference, commentId)
        return yield* viewOne(grant, changeRequest, comment)
      })

    /** Posts a comment on the change request, or on a page or a block of its current revision: `comment` level. */
    const post = (spaceId: SpaceId, reference: string, input: PostCommentInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(PostCommentInput)(input)
        const { grant, changeRequest } = yield* changeRequestService.locate(spaceId, reference)
        yield* guard.require(grant, "comment", "comment on change requests in this space")
        const actor = yield* Actor
        return yield* uow.transaction(Effect.gen(function*() {
          const current = yield* lockChangeRequest(changeRequest)
          yield* requireTakesComments(current)
          const content = yield* Effect.cached(contents.load(current.revisionId))
          const page = valid.page === undefined
            ? undefined
            : yield* Effect.flatMap(
              isPageId(valid.page) ? contents.loadPage(current.revisionId, valid.page) : Effect.succeed(Option.none()),
              Option.match({
                onNone: () => Effect.fail(new InvalidInput({ field: "page", rule: `${valid.page} is not a page of the change request` })),
                onSome: Effect.succeed
              })
            )
          let node: { readonly id: string; readonly preview: string } | undefined
          let nodePage = page
          if (valid.node !== undefined) {
            const blocks = blockReader(work)
            const candidates = page !== undefined ? [page] : [...(yield* content).pages.values()]
            for (const candidate of candidates) {
              const text = (yield* blocks(candidate)).get(valid.node)
              if (text !== undefined) {
                node = { id: valid.node, preview: text.slice(0, MAX_NODE_PREVIEW) }
                nodePage = candidate
                break
              }
            }
            if (node === undefined) {
              return yield* new InvalidInput({
                field: "node",
                rule: `${valid.node} is not a block of ${page === undefined ? "the change request" : `page ${page.id}`}`
              })
            }
          }
          const body = yield* bodyOf(valid.body, "body", content, nodePage?.id ?? null)
          const at = yield* now
          const comment: Comment = {
            id: CommentId.make(yield* secrets.newId),
            spaceId,
            changeRequestId: current.id,
            postedBy: actor.id,
            postedAt: at,
            body,
            status: "open",
            revisionId: current.revisionId,
            ...(nodePage === undefined ? {} : { pageId: nodePage.id }),
            ...(node === undefined ? {} : { node }),
            replies: 0
          }
          yield* comments.insert(comment)
          yield* comments.countOpen(spaceId, 1)
          return yield* viewOne(grant, current, comment)
        }))
      })

    /** Resolves or reopens, edits the body, adds and removes the actor's reactions: each as the policy allows. */
    const update = (spaceId: SpaceId, reference: string, commentId: string, input: UpdateCommentInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateCommentInput)(input)
        const reactions = yield* reactionChanges(valid)
        const { grant, changeRequest } = yield* changeRequestService.locate(spaceId, reference)
        const actor = yield* Actor
        return yield* uow.transaction(Effect.gen(function*() {
          const current = yield* lockChangeRequest(changeRequest)
          const comment = yield* findComment(current, commentId)
          const may = commentPermissions(grant.level, actor.id, comment.postedBy, takesComments(current.status))
          if (valid.resolved !== undefined) {
            yield* requireMay(may.resolve, "resolve or reopen this comment", "being its author or the review level")
          }
          const reacting = reactions.added.length + reactions.removed.length > 0
          const at = yield* now
          let updated = yield* editBody(comment, "comment", { body: valid.body, reacting }, { may, level: grant.level }, {
            comment,
            changeRequest: current,
            at
          })
          if (valid.resolved === true && comment.status === "open") {
            updated = { ...updated, status: "resolved", resolvedAt: at, resolvedBy: actor.id }
            yield* comments.countOpen(spaceId, -1)
          } else if (valid.resolved === false && comment.status === "resolved") {
            const { resolvedAt: _at, resolvedBy: _by, ...reopened } = updated
            updated = { ...reopened, status: "open" }
            yield* comments.countOpen(spaceId, 1)
          }
          if (updated !== comment) yield* comments.update(updated)
          if (reacting) yield* comments.react(comment.id, comment.id, actor.id, { ...reactions, at })
          return yield* viewOne(grant, current, updated)
        }))
      })

    /** Deletes the comment with its replies and reactions: its author or an admin. */
    const remove = (spaceId: SpaceId, reference: string, commentId: string) =>
      Effect.gen(function*() {
        const { grant, changeRequest } = yield* changeRequestService.locate(spaceId, reference)
        const actor = yield* Actor
        yield* uow.transaction(Effect.gen(function*() {
          const current = yield* lockChangeRequest(changeRequest)
          const comment = yield* findComment(current, commentId)
          const may = commentPermissions(grant.level, actor.id, comment.postedBy, takesComments(current.status))
          yield* requireMay(may.delete, "delete this comment", "being its author or the admin level")
          if (comment.status === "open") yield* comments.countOpen(spaceId, -1)
          yield* comments.remove(comment.id)
        }))
      })

    return { list, get, post, update, remove } as const
  })
}) {}
