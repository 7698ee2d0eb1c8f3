import { Effect } from "effect"
import type { ChangeRequest } from "../content/ChangeRequest.js"
import type { ContentPage, RevisionContent } from "../content/Page.js"
import { pathIndex } from "../content/Resolve.js"
import { RevisionContents } from "../content/RevisionContents.js"
import { Actor } from "../identity/Actor.js"
import { blocksTask, HeavyWork, type HeavyWorkRunner } from "../shared/HeavyWork.js"
import type { CommentId, PageId, RevisionId } from "../shared/Ids.js"
import type { SpaceGrant } from "../spaces/SpaceAccess.js"
import type { Comment, CommentReply, CommentView, ReplyView, TargetPage } from "./Comment.js"
import { commentPermissions, takesComments } from "./Policy.js"
import { CommentViewFacts } from "./Ports.js"
import { groupReactions } from "./Reactions.js"

/**
 * The keys and texts of a page's top-level blocks, read once per page version within a call. A page that
 * cannot be read (not within the time given) shows no blocks: comments on it read as outdated.
 */
export const blockReader = (work: HeavyWorkRunner) => {
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

/** The page a comment is on, as its view names it. */
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

/** Comments and replies as the actor reads them: who wrote them, their reactions, what they point at, what the actor may do. */
export const makeCommentViews = Effect.gen(function*() {
  const facts = yield* CommentViewFacts
  const contents = yield* RevisionContents
  const work = yield* HeavyWork

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
      const blocks = blockReader(work)
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

  return { views, viewOne, replyViews, replyView } as const
})
