import { type JSONDocument, markdownProblem } from "@octavo/markdown"
import { Effect, Option, Schema } from "effect"
import { type ChangeRequest } from "../content/ChangeRequest.js"
import { ChangeRequests } from "../content/ChangeRequestService.js"
import { documentToMarkdown } from "../content/Document.js"
import type { ContentPage, RevisionContent } from "../content/Page.js"
import { ChangeRequestRepository } from "../content/Ports.js"
import { RevisionContents } from "../content/RevisionContents.js"
import { pathIndex, resolveLinksWith } from "../content/Resolve.js"
import { Actor } from "../identity/Actor.js"
import type { User } from "../identity/User.js"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../shared/Errors.js"
import { CommentId, CommentReplyId, PageId, type RevisionId, type SpaceId, UserId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { Order, Page, PageRequest } from "../shared/Pagination.js"
import { blocksTask, HeavyWork, linksTask } from "../shared/HeavyWork.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import type { SpaceGrant } from "../spaces/SpaceAccess.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import {
  type Comment,
  type CommentBody,
  type CommentPermissions,
  type CommentReply,
  type CommentStatus,
  type CommentView,
  MAX_COMMENT_LENGTH,
  MAX_NODE_PREVIEW,
  PostCommentInput,
  PostReplyInput,
  type Reaction,
  type ReactionGroup,
  type ReplyView,
  type TargetPage,
  UpdateCommentInput,
  UpdateReplyInput
} from "./Comment.js"
import { normalizeEmoji } from "./Emoji.js"
import { commentPermissions, mayReact, takesComments } from "./Policy.js"
import { CommentRepository, CommentViewFacts, SpaceCommentReads } from "./Ports.js"

/** Which comments a list holds, as the caller asks: ids not yet checked. */
export interface CommentQuery {
  readonly status?: CommentStatus | "all" | undefined
  readonly targetPage?: string | undefined
  readonly authors?: ReadonlyArray<string> | undefined
  readonly order?: Order | undefined
}

/** The changes to a reaction list an update asks for, normalized; an emoji in both ends up removed. */
const reactionChanges = (
  input: { readonly addedReactions?: ReadonlyArray<string> | undefined; readonly removedReactions?: ReadonlyArray<string> | undefined }
) =>
  Effect.gen(function*() {
    const normalize = (list: ReadonlyArray<string> | undefined, field: string) =>
      Effect.forEach(list ?? [], (text, index) => {
        const emoji = normalizeEmoji(text)
        return emoji === undefined
          ? Effect.fail(
            new InvalidInput({ field: `${field}.${index}`, rule: "must be one emoji, as its character or its code points in hex" })
          )
          : Effect.succeed(emoji)
      })
    const added = yield* normalize(input.addedReactions, "addedReactions")
    const removed = yield* normalize(input.removedReactions, "removedReactions")
    return { added: [...new Set(added)], removed: [...new Set(removed)] }
  })

/** Groups reactions by emoji, in the order each emoji was first used, users in the order they reacted. */
const groupReactions = (reactions: ReadonlyArray<Reaction>, usersById: ReadonlyMap<string, User>): Array<ReactionGroup> => {
  const groups = new Map<string, Array<{ readonly user: User; readonly reactedAt: Date }>>()
  const sorted = [...reactions].sort((a, b) =>
    a.reactedAt.getTime() - b.reactedAt.getTime() || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)
  )
  for (const reaction of sorted) {
    const user = usersById.get(reaction.userId)
    if (user === undefined) continue
    const group = groups.get(reaction.emoji) ?? []
    group.push({ user, reactedAt: reaction.reactedAt })
    groups.set(reaction.emoji, group)
  }
  return [...groups].map(([emoji, users]) => ({ emoji, users }))
}

/**
 * Change request comments (conventions-2.md §3): threads, replies, reactions, resolving. Writes
 * take the space's lock, so that they queue behind merges and each other, and keep the counters in
 * the same unit of work.
 */
export class Comments extends Effect.Service<Comments>()("@octavo/domain/Comments", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const changeRequestService = yield* ChangeRequests
    const changeRequests = yield* ChangeRequestRepository
    const contents = yield* RevisionContents
    const comments = yield* CommentRepository
    const facts = yield* CommentViewFacts
    const threads = yield* SpaceCommentReads
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const work = yield* HeavyWork

    const isCommentId = Schema.is(CommentId)
    const isReplyId = Schema.is(CommentReplyId)
    const isPageId = Schema.is(PageId)
    const isUserId = Schema.is(UserId)

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

    /**
     * The keys and texts of a page's top-level blocks, read once per page version within a call. A page that
     * cannot be read (not within the time given) shows no blocks: comments on it read as outdated.
     */
    const blockCache = () => {
      const cache = new Map<ContentPage, ReadonlyMap<string, string>>()
      return (page: ContentPage): Effect.Effect<ReadonlyMap<string, string>> => {
        const cached = cache.get(page)
        if (cached !== undefined) return Effect.succeed(cached)
        const read = page.kind === "document" ? Effect.orElseSucceed(work.run(blocksTask, page.markdown), () => []) : Effect.succeed([])
        return Effect.map(read, (list) => {
          const blocks = new Map(list.map((b) => [b.key, b.text]))
          cache.set(page, blocks)
          return blocks
        })
      }
    }

    /** Comments as read by the actor: authors, reactions, repliers, and their target as the change request holds it now. */
    const views = (grant: SpaceGrant, changeRequest: ChangeRequest, list: ReadonlyArray<Comment>) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        const ids = list.map((c) => c.id)
        const { reactions, repliers, users: people } = yield* facts.of({
          subjects: ids,
          repliersOf: ids,
          users: list.flatMap((c) => (c.resolvedBy === undefined ? [c.postedBy] : [c.postedBy, c.resolvedBy]))
        })
        const targets = yield* targetPages(changeRequest, list)
        const open = takesComments(changeRequest.status)
        return list.map((comment): CommentView => ({
          comment,
          postedBy: people.get(comment.postedBy),
          resolvedBy: comment.resolvedBy === undefined ? undefined : people.get(comment.resolvedBy),
          reactions: groupReactions(reactions.get(comment.id) ?? [], people),
          repliers: (repliers.get(comment.id) ?? []).flatMap((r) => {
            const user = people.get(r.userId)
            return user === undefined ? [] : [{ user, count: r.count, updatedAt: r.updatedAt }]
          }),
          page: targets.get(comment.id),
          permissions: commentPermissions(grant.level, actor.id, comment.postedBy, open)
        }))
      })

    /**
     * What each comment on a page points at in the change request's current revision; a page gone
     * from it is described as the revision the comment was posted on held it.
     */
    const targetPages = (changeRequest: ChangeRequest, list: ReadonlyArray<Comment>) =>
      Effect.gen(function*() {
        const answered = new Map<CommentId, TargetPage>()
        const onPages = list.filter((c) => c.pageId !== undefined)
        if (onPages.length === 0) return answered
        const current = yield* contents.load(changeRequest.revisionId)
        const currentPaths = pathIndex(current)
        const blocks = blockCache()
        const earlier = new Map<RevisionId, { readonly content: RevisionContent; readonly paths: ReturnType<typeof pathIndex> }>()
        for (const comment of onPages) {
          const pageId = comment.pageId as PageId
          const now = current.pages.get(pageId)
          if (now !== undefined) {
            const outdated = comment.node !== undefined && (yield* blocks(now)).get(comment.node.id) === undefined
            answered.set(comment.id, describe(now, currentPaths.pathOf.get(pageId), outdated))
            continue
          }
          let then = earlier.get(comment.revisionId)
          if (then === undefined) {
            const content = yield* contents.load(comment.revisionId)
            then = { content, paths: pathIndex(content) }
            earlier.set(comment.revisionId, then)
          }
          const old = then.content.pages.get(pageId)
          answered.set(comment.id, old === undefined ? { id: pageId, outdated: true } : describe(old, then.paths.pathOf.get(pageId), true))
        }
        return answered
      })

    const describe = (page: ContentPage, path: string | undefined, outdated: boolean): TargetPage => ({
      id: page.id,
      title: page.title,
      emoji: page.emoji,
      icon: page.icon,
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
      path,
      outdated
    })

    const viewOne = (grant: SpaceGrant, changeRequest: ChangeRequest, comment: Comment) =>
      Effect.map(views(grant, changeRequest, [comment]), (one) => one[0] as CommentView)

    const replyViews = (grant: SpaceGrant, changeRequest: ChangeRequest, list: ReadonlyArray<CommentReply>) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        const { reactions, users: people } = yield* facts.of({
          subjects: list.map((r) => r.id),
          repliersOf: [],
          users: list.map((r) => r.postedBy)
        })
        const open = takesComments(changeRequest.status)
        return list.map((reply): ReplyView => ({
          reply,
          postedBy: people.get(reply.postedBy),
          reactions: groupReactions(reactions.get(reply.id) ?? [], people),
          permissions: commentPermissions(grant.level, actor.id, reply.postedBy, open)
        }))
      })

    const replyView = (grant: SpaceGrant, changeRequest: ChangeRequest, reply: CommentReply) =>
      Effect.map(replyViews(grant, changeRequest, [reply]), (one) => one[0] as ReplyView)

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
            const blocks = blockCache()
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

    return { list, get, post, update, remove, listReplies, getReply, reply, updateReply, removeReply } as const
  })
}) {}
