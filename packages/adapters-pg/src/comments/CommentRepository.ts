import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  ChangeRequestId,
  Comment,
  CommentId,
  CommentReply,
  CommentReplyId,
  CommentRepository,
  type Keyset,
  type Reaction,
  type Replier,
  SpaceId,
  UserId
} from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { execute, findAll, findOne, rowOf } from "../shared/Rows.js"
import { type Ids, oneOf, selectPage } from "../shared/Sql.js"

const { node: _node, ...commentColumns } = Comment.fields

/** A comment's row: the block it is about kept as two columns, `node_id` and `node_preview`. */
export const CommentRow = Schema.transform(
  rowOf(Schema.Struct({ ...commentColumns, nodeId: Schema.optional(Schema.String), nodePreview: Schema.optional(Schema.String) })),
  Schema.typeSchema(Comment),
  {
    strict: true,
    decode: ({ nodeId, nodePreview, ...comment }) =>
      nodeId === undefined ? comment : { ...comment, node: { id: nodeId, preview: nodePreview ?? "" } },
    encode: ({ node, ...comment }) => ({ ...comment, nodeId: node?.id, nodePreview: node?.preview })
  }
)

export const ReplyRow = rowOf(CommentReply)

const Subject = Schema.Union(CommentId, CommentReplyId)

export const ReactionRow = rowOf(Schema.Struct({
  commentId: CommentId,
  subjectId: Subject,
  userId: UserId,
  emoji: Schema.String,
  reactedAt: Schema.DateFromSelf
}))

export const ReplierRow = rowOf(Schema.Struct({
  commentId: CommentId,
  userId: UserId,
  count: Schema.Number,
  updatedAt: Schema.DateFromSelf
}))

export const OpenByChangeRequestRow = rowOf(Schema.Struct({ changeRequestId: ChangeRequestId, open: Schema.Number }))

/** A space's count of open comments. */
export const OpenCountRow = rowOf(Schema.Struct({ spaceId: SpaceId, open: Schema.Number }))

/** The open comments of those of the spaces that have any: one `OpenCountRow` each. */
export const openCommentCounts = (sql: SqlClient.SqlClient, spaceIds: Ids) =>
  sql`SELECT space_id, open FROM space_comment_counts WHERE ${oneOf(sql, "space_id", spaceIds)}`

/** The reactions to the subjects (comments or replies): one `ReactionRow` each. */
export const reactionsTo = (sql: SqlClient.SqlClient, subjectIds: ReadonlyArray<string>) =>
  sql`SELECT * FROM comment_reactions WHERE subject_id = ANY(${subjectIds}::text[])`

/** Who replied to each of the comments, how often and when last: one `ReplierRow` each. */
export const repliersTo = (sql: SqlClient.SqlClient, commentIds: ReadonlyArray<string>) =>
  sql`SELECT comment_id, posted_by AS user_id, count(*)::int AS count, max(posted_at) AS updated_at
    FROM comment_replies WHERE comment_id = ANY(${commentIds}::text[])
    GROUP BY comment_id, posted_by`

/** How many open comments each of the change requests has: one `OpenByChangeRequestRow` each, none for those with none. */
export const openByChangeRequestOf = (sql: SqlClient.SqlClient, changeRequestIds: ReadonlyArray<string>) =>
  sql`SELECT change_request_id, count(*)::int AS open FROM comments
    WHERE change_request_id = ANY(${changeRequestIds}::text[]) AND status = 'open' GROUP BY change_request_id`

/** `ReactionRow`s by their subject, each subject's in the order `reactionsOf` answers. */
export const reactionsBySubject = (rows: ReadonlyArray<typeof ReactionRow.Type>): Map<string, Array<Reaction>> => {
  const answered = new Map<string, Array<Reaction>>()
  for (const { commentId: _thread, ...reaction } of rows) {
    const list = answered.get(reaction.subjectId) ?? []
    list.push(reaction)
    answered.set(reaction.subjectId, list)
  }
  for (const list of answered.values()) list.sort(byReacting)
  return answered
}

/** `ReplierRow`s by their comment, each comment's most recent replier first, then by user id. */
export const repliersByComment = (rows: ReadonlyArray<typeof ReplierRow.Type>): Map<CommentId, Array<Replier>> => {
  const answered = new Map<CommentId, Array<Replier>>()
  for (const { commentId, ...replier } of rows) {
    const list = answered.get(commentId) ?? []
    list.push(replier)
    answered.set(commentId, list)
  }
  for (const list of answered.values()) list.sort(byReplying)
  return answered
}

const byPosting = (item: { readonly postedAt: Date; readonly id: string }): Keyset => [item.postedAt.getTime(), item.id]

/** The memory adapter's order of a subject's reactions: when made, then user id and emoji as JavaScript compares strings. */
const byReacting = (a: Reaction, b: Reaction) =>
  a.reactedAt.getTime() - b.reactedAt.getTime() ||
  (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.emoji < b.emoji ? -1 : 1)

/** Most recent replier first, then by user id as JavaScript compares strings. */
const byReplying = (a: Replier, b: Replier) =>
  b.updatedAt.getTime() - a.updatedAt.getTime() || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)

export const CommentRepositoryLive = Layer.effect(
  CommentRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const reactionsOf = findAll(Schema.Array(Subject), ReactionRow, (ids) => reactionsTo(sql, ids))
    const repliersOf = findAll(Schema.Array(CommentId), ReplierRow, (ids) => repliersTo(sql, ids))
    const openByChangeRequest = findAll(
      Schema.Array(ChangeRequestId),
      OpenByChangeRequestRow,
      (ids) => openByChangeRequestOf(sql, ids)
    )
    const openCounts = findAll(
      Schema.Array(SpaceId),
      OpenCountRow,
      (ids) => openCommentCounts(sql, ids)
    )

    return CommentRepository.of({
      insert: execute(CommentRow, (row) => sql`INSERT INTO comments ${sql.insert(row)}`),
      // Every column but `replies`, which follows the replies themselves.
      update: execute(
        CommentRow,
        (row) => sql`UPDATE comments SET ${sql.update(row, ["id", "replies"])} WHERE id = ${row["id"]}`
      ),
      // Its replies and every reaction go with it (ON DELETE CASCADE).
      remove: execute(CommentId, (id) => sql`DELETE FROM comments WHERE id = ${id}`),
      findById: findOne(CommentId, CommentRow, (id) => sql`SELECT * FROM comments WHERE id = ${id}`),
      list: (changeRequestId, filter, order, page) => {
        const where: Array<Fragment> = [sql`c.change_request_id = ${changeRequestId}`]
        if (filter.status !== undefined) where.push(sql`c.status = ${filter.status}`)
        if (filter.pageId !== undefined) where.push(sql`c.page_id = ${filter.pageId}`)
        if (filter.authors !== undefined && filter.authors.length > 0) where.push(sql.in("c.posted_by", filter.authors))
        return selectPage(sql, {
          select: sql`c.*`,
          from: sql`FROM comments c`,
          where,
          keyset: { value: "c.posted_at", id: "c.id" },
          keysetOf: byPosting,
          order,
          page,
          row: CommentRow
        })
      },

      // One statement: the reply and its count land together.
      insertReply: execute(ReplyRow, (row) =>
        sql`WITH added AS (INSERT INTO comment_replies ${sql.insert(row)} RETURNING comment_id)
          UPDATE comments SET replies = replies + 1 WHERE id IN (SELECT comment_id FROM added)`),
      updateReply: execute(
        ReplyRow,
        (row) => sql`UPDATE comment_replies SET ${sql.update(row, ["id", "comment_id"])} WHERE id = ${row["id"]}`
      ),
      // One statement: the reply, its reactions and its count go together; a reply not there changes nothing.
      removeReply: execute(CommentReplyId, (id) =>
        sql`WITH gone AS (DELETE FROM comment_replies WHERE id = ${id} RETURNING comment_id),
            reactions AS (DELETE FROM comment_reactions WHERE subject_id = ${id} AND EXISTS (SELECT 1 FROM gone))
          UPDATE comments SET replies = replies - 1 WHERE id IN (SELECT comment_id FROM gone)`),
      findReply: findOne(CommentReplyId, ReplyRow, (id) => sql`SELECT * FROM comment_replies WHERE id = ${id}`),
      listReplies: (commentId, page) =>
        selectPage(sql, {
          select: sql`r.*`,
          from: sql`FROM comment_replies r`,
          where: [sql`r.comment_id = ${commentId}`],
          keyset: { value: "r.posted_at", id: "r.id" },
          keysetOf: byPosting,
          order: "asc",
          page,
          row: ReplyRow
        }),
      repliersOf: (commentIds) =>
        commentIds.length === 0
          ? Effect.succeed(new Map())
          : Effect.map(repliersOf(commentIds), repliersByComment),

      // Two statements, in this order: an emoji both added and removed ends up removed.
      react: (commentId, subjectId, userId, changes) =>
        Effect.gen(function*() {
          const added = yield* Schema.encode(Schema.Array(ReactionRow))(
            changes.added.map((emoji) => ({ commentId, subjectId, userId, emoji, reactedAt: changes.at }))
          )
          if (added.length > 0) {
            yield* sql`INSERT INTO comment_reactions ${sql.insert(added)} ON CONFLICT (subject_id, user_id, emoji) DO NOTHING`
          }
          if (changes.removed.length > 0) {
            yield* sql`DELETE FROM comment_reactions WHERE subject_id = ${subjectId} AND user_id = ${userId}
              AND emoji = ANY(${changes.removed}::text[])`
          }
        }).pipe(Effect.orDie),
      reactionsOf: (subjectIds) =>
        subjectIds.length === 0
          ? Effect.succeed(new Map())
          : Effect.map(reactionsOf(subjectIds), reactionsBySubject),

      // Counted through the status index (change_request_id, status, …) when read; only the space counter is kept.
      openByChangeRequest: (changeRequestIds) =>
        changeRequestIds.length === 0
          ? Effect.succeed(new Map())
          : Effect.map(openByChangeRequest(changeRequestIds), (rows) => new Map(rows.map((row) => [row.changeRequestId, row.open]))),
      countOpen: (spaceId, delta) =>
        sql`INSERT INTO space_comment_counts (space_id, open) VALUES (${spaceId}, ${delta})
          ON CONFLICT (space_id) DO UPDATE SET open = space_comment_counts.open + excluded.open`.pipe(Effect.asVoid, Effect.orDie),
      openCounts: (spaceIds) =>
        spaceIds.length === 0
          ? Effect.succeed(new Map())
          : Effect.map(openCounts(spaceIds), (rows) => new Map(rows.map((row) => [row.spaceId, row.open])))
    })
  })
)
