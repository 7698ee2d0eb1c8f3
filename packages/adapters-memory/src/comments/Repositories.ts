import {
  type ChangeRequestId,
  CommentRepository,
  type CommentId,
  type Keyset,
  type Reaction,
  type Replier,
  type SpaceId
} from "@octavo/domain"
import { Effect, HashMap, Option } from "effect"
import { change, layerOver, pairKey } from "../shared/index.js"
import { CommentsState } from "./State.js"

const byPosting = (item: { readonly postedAt: Date; readonly id: string }): Keyset => [item.postedAt.getTime(), item.id]

const reactionKey = (subjectId: string, userId: string, emoji: string) => pairKey(pairKey(subjectId, userId), emoji)

export const MemoryCommentRepository = layerOver(CommentRepository, CommentsState, (
  { comments, openCounts, reactions, replies },
  store
) => ({
  insert: (comment) => comments.insert(comment.id, comment),
  // Everything but `replies`, which follows the replies themselves.
  update: (comment) => comments.modify(comment.id, (held) => ({ ...comment, replies: held.replies })),
  remove: (id) =>
    change(store, CommentsState, (state) => ({
      ...state,
      comments: HashMap.remove(state.comments, id),
      replies: HashMap.filter(state.replies, (reply) => reply.commentId !== id),
      reactions: HashMap.filter(state.reactions, (reaction) => reaction.commentId !== id)
    })),
  findById: comments.get,
  list: (changeRequestId, filter, order, page) =>
    comments.page(
      (c) =>
        c.changeRequestId === changeRequestId &&
        (filter.status === undefined || c.status === filter.status) &&
        (filter.pageId === undefined || c.pageId === filter.pageId) &&
        (filter.authors === undefined || filter.authors.length === 0 || filter.authors.includes(c.postedBy)),
      byPosting,
      order,
      page
    ),

  insertReply: (reply) =>
    change(store, CommentsState, (state) => ({
      ...state,
      replies: HashMap.set(state.replies, reply.id, reply),
      comments: HashMap.modify(state.comments, reply.commentId, (c) => ({ ...c, replies: c.replies + 1 }))
    })),
  updateReply: (reply) => replies.modify(reply.id, (held) => ({ ...reply, commentId: held.commentId })),
  removeReply: (id) =>
    change(store, CommentsState, (state) => {
      const held = HashMap.get(state.replies, id)
      if (Option.isNone(held)) return state
      return {
        ...state,
        replies: HashMap.remove(state.replies, id),
        reactions: HashMap.filter(state.reactions, (reaction) => reaction.subjectId !== id),
        comments: HashMap.modify(state.comments, held.value.commentId, (c) => ({ ...c, replies: c.replies - 1 }))
      }
    }),
  findReply: replies.get,
  listReplies: (commentId, page) => replies.page((r) => r.commentId === commentId, byPosting, "asc", page),
  repliersOf: (commentIds) =>
    Effect.map(replies.filter((r) => commentIds.includes(r.commentId)), (held) => {
      const answered = new Map<CommentId, Map<string, Replier>>()
      for (const reply of held) {
        const of = answered.get(reply.commentId) ?? new Map<string, Replier>()
        const current = of.get(reply.postedBy)
        of.set(reply.postedBy, {
          userId: reply.postedBy,
          count: (current?.count ?? 0) + 1,
          updatedAt: current === undefined || current.updatedAt < reply.postedAt ? reply.postedAt : current.updatedAt
        })
        answered.set(reply.commentId, of)
      }
      // Most recent replier first, then by user id.
      return new Map(
        [...answered].map(([id, of]) => [
          id,
          [...of.values()].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.userId < b.userId ? -1 : 1))
        ])
      )
    }),

  react: (commentId, subjectId, userId, changes) =>
    reactions.update((held) => {
      let next = held
      for (const emoji of changes.added) {
        const key = reactionKey(subjectId, userId, emoji)
        if (!HashMap.has(next, key)) next = HashMap.set(next, key, { commentId, subjectId, userId, emoji, reactedAt: changes.at })
      }
      for (const emoji of changes.removed) next = HashMap.remove(next, reactionKey(subjectId, userId, emoji))
      return next
    }),
  reactionsOf: (subjectIds) =>
    Effect.map(reactions.filter((r) => subjectIds.includes(r.subjectId)), (held) => {
      const answered = new Map<string, Array<Reaction>>()
      for (const { commentId: _thread, ...reaction } of held) {
        const list = answered.get(reaction.subjectId) ?? []
        list.push(reaction)
        answered.set(reaction.subjectId, list)
      }
      for (const list of answered.values()) {
        list.sort((a, b) =>
          a.reactedAt.getTime() - b.reactedAt.getTime() || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.emoji < b.emoji ? -1 : 1)
        )
      }
      return answered
    }),

  openByChangeRequest: (changeRequestIds) =>
    Effect.map(comments.filter((c) => c.status === "open" && changeRequestIds.includes(c.changeRequestId)), (held) => {
      const answered = new Map<ChangeRequestId, number>()
      for (const c of held) answered.set(c.changeRequestId, (answered.get(c.changeRequestId) ?? 0) + 1)
      return answered
    }),
  countOpen: (spaceId, delta) => openCounts.upsert(spaceId, (held) => Option.getOrElse(held, () => 0) + delta),
  openCounts: (spaceIds) =>
    Effect.map(Effect.forEach(spaceIds, (id) => Effect.map(openCounts.get(id), (count) => [id, count] as const)), (pairs) => {
      const answered = new Map<SpaceId, number>()
      for (const [id, count] of pairs) if (Option.isSome(count)) answered.set(id, count.value)
      return answered
    })
}))
