import { type JSONDocument, markdownProblem } from "@octavo/markdown"
import { Effect, Option, Schema } from "effect"
import type { ChangeRequest } from "../content/ChangeRequest.js"
import { ChangeRequests } from "../content/ChangeRequestService.js"
import { documentToMarkdown } from "../content/Document.js"
import type { RevisionContent } from "../content/Page.js"
import { ChangeRequestRepository } from "../content/Ports.js"
import { pathIndex, resolveLinksWith } from "../content/Resolve.js"
import { RevisionContents } from "../content/RevisionContents.js"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../shared/Errors.js"
import { HeavyWork, linksTask } from "../shared/HeavyWork.js"
import { CommentId, CommentReplyId, type PageId, type SpaceId } from "../shared/Ids.js"
import type { SpaceGrant } from "../spaces/SpaceAccess.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { type Comment, type CommentBody, type CommentPermissions, type CommentReply, MAX_COMMENT_LENGTH } from "./Comment.js"
import { mayReact, takesComments } from "./Policy.js"
import { CommentRepository, SpaceCommentReads } from "./Ports.js"

/**
 * What the comments context's services share: finding a comment or a reply of a change request,
 * locking the change request for a write, and reading a body as it is stored.
 */
export const makeCommentWork = Effect.gen(function*() {
  const guard = yield* SpaceAccess
  const changeRequestService = yield* ChangeRequests
  const changeRequests = yield* ChangeRequestRepository
  const contents = yield* RevisionContents
  const comments = yield* CommentRepository
  const threads = yield* SpaceCommentReads
  const work = yield* HeavyWork

  const isCommentId = Schema.is(CommentId)
  const isReplyId = Schema.is(CommentReplyId)

  /** Under the space's lock: the change request read again (a merge may have landed meanwhile). */
  const lockChangeRequest = (changeRequest: ChangeRequest) =>
    Effect.gen(function*() {
      yield* guard.lock(changeRequest.spaceId)
      const current = yield* changeRequests.findById(changeRequest.id)
      if (Option.isNone(current)) return yield* new NotFound({ entity: "change request", id: changeRequest.id })
      return current.value
    })

  const requireTakesComments = (changeRequest: ChangeRequest) =>
    takesComments(changeRequest.status)
      ? Effect.void
      : Effect.fail(new Conflict({ reason: `The change request is ${changeRequest.status}: it takes no new comments or replies` }))

  const findComment = (changeRequest: ChangeRequest, id: string) =>
    Effect.gen(function*() {
      const found = isCommentId(id) ? yield* comments.findById(id) : Option.none()
      if (Option.isNone(found) || found.value.changeRequestId !== changeRequest.id) {
        return yield* new NotFound({ entity: "comment", id })
      }
      return found.value
    })

  /**
   * The change request `reference` names and its comment `commentId` (with its reply `replyId`, when one is asked
   * for), read with the space's access in one go; a comment that is not the change request's is not found.
   */
  const locateComment = (spaceId: SpaceId, reference: string, commentId: string, replyId?: string) =>
    Effect.gen(function*() {
      if (!isCommentId(commentId)) {
        yield* changeRequestService.locate(spaceId, reference)
        return yield* new NotFound({ entity: "comment", id: commentId })
      }
      const reply = replyId !== undefined && isReplyId(replyId) ? Option.some(replyId) : Option.none()
      const { changeRequest, grant, read } = yield* changeRequestService.locateWith(
        spaceId,
        reference,
        (userId, key) => threads.find(spaceId, userId, key, commentId, reply)
      )
      if (Option.isNone(read.comment)) return yield* new NotFound({ entity: "comment", id: commentId })
      return { grant, changeRequest, comment: read.comment.value, reply: read.reply }
    })

  const findReply = (comment: Comment, id: string) =>
    Effect.gen(function*() {
      const found = isReplyId(id) ? yield* comments.findReply(id) : Option.none()
      if (Option.isNone(found) || found.value.commentId !== comment.id) return yield* new NotFound({ entity: "comment reply", id })
      return found.value
    })

  /**
   * A body as stored: markdown 1 to 20,000 characters, not blank, from `{markdown}` or
   * `{document}`, its links to the content resolved as a page's are (from the page it is about).
   */
  const bodyOf = (body: CommentBody, field: string, content: Effect.Effect<RevisionContent>, from: PageId | null) =>
    Effect.gen(function*() {
      if (body.markdown !== undefined && body.document !== undefined) {
        return yield* new InvalidInput({ field, rule: "must be one of {markdown} or {document}" })
      }
      const markdown = body.markdown !== undefined
        ? body.markdown
        : body.document !== undefined
        ? yield* Effect.try({
          try: () => documentToMarkdown(body.document as unknown as JSONDocument).trimEnd(),
          catch: (error) => new InvalidInput({ field: `${field}.document`, rule: `is not a document GitBook can read: ${String(error)}` })
        })
        : yield* new InvalidInput({ field, rule: "must be {markdown} or {document}" })
      if (markdown.trim() === "") return yield* new InvalidInput({ field, rule: "must not be blank" })
      const problem = markdownProblem(markdown)
      if (problem !== undefined) return yield* new InvalidInput({ field, rule: problem })
      if (markdown.length > MAX_COMMENT_LENGTH) {
        return yield* new InvalidInput({ field, rule: `must be at most ${MAX_COMMENT_LENGTH} characters, got ${markdown.length}` })
      }
      const unreadable = ({ rule }: { readonly rule: string }) => new InvalidInput({ field, rule })
      const links = yield* Effect.mapError(work.run(linksTask, markdown), unreadable)
      if (links.length === 0) return markdown
      const all = yield* content
      return yield* Effect.mapError(resolveLinksWith(work, markdown, links, all, pathIndex(all), from), unreadable)
    })

  /** Refuses the whole update when the actor may not set one of its fields. */
  const requireMay = (allowed: boolean, action: string, required: string) =>
    allowed ? Effect.void : Effect.fail(new Forbidden({ action, required }))

  /**
   * What an update does to the body of a comment or a reply of `thread`, refused whole when the actor may not set
   * the body or react: the item with its new body (`editedAt` moves only when the body changes).
   */
  const editBody = <T extends Comment | CommentReply>(
    item: T,
    what: "comment" | "reply",
    changes: { readonly body?: CommentBody | undefined; readonly reacting: boolean },
    allowed: { readonly may: CommentPermissions; readonly level: SpaceGrant["level"] },
    thread: { readonly comment: Comment; readonly changeRequest: ChangeRequest; readonly at: Date }
  ) =>
    Effect.gen(function*() {
      if (changes.body !== undefined) yield* requireMay(allowed.may.edit, `edit this ${what}`, "being its author or the admin level")
      if (changes.reacting) {
        yield* requireMay(mayReact(allowed.level), `react to ${what === "comment" ? "comments" : "replies"}`, "the comment level")
      }
      if (changes.body === undefined) return item
      const content = contents.load(thread.changeRequest.revisionId)
      const body = yield* bodyOf(changes.body, "body", content, thread.comment.pageId ?? null)
      return body === item.body ? item : { ...item, body, editedAt: thread.at }
    })

  return { lockChangeRequest, requireTakesComments, findComment, locateComment, findReply, bodyOf, requireMay, editBody } as const
})
