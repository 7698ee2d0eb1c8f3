import * as SqlClient from "@effect/sql/SqlClient"
import {
  ChangeRequestId,
  ChangeRequestViewFacts,
  CommentId,
  CommentReplyId,
  CommentViewFacts,
  OpenCommentsFact,
  SpaceCommentReads,
  SpaceId,
  UserId
} from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { ChangeRequestRow } from "../content/ChangeRequestRepository.js"
import { keyOf, withChangeRequest } from "../content/Reads.js"
import { UserRow } from "../identity/UserRepository.js"
import { findOne, single } from "../shared/Rows.js"
import { accessColumns, accessFields, asItemForAccess } from "../spaces/ForAccess.js"
import { gathered, jsonArray, pgSpaceFact } from "../spaces/Facts.js"
import { SpaceRow } from "../spaces/SpaceRepository.js"
import {
  CommentRow,
  OpenByChangeRequestRow,
  openByChangeRequestOf,
  OpenCountRow,
  openCommentCounts,
  ReactionRow,
  reactionsBySubject,
  reactionsTo,
  ReplierRow,
  repliersByComment,
  repliersTo,
  ReplyRow
} from "./CommentRepository.js"

/** The open comments of the spaces counted, on views of spaces: one JSON array of `OpenCountRow`. */
export const PgOpenComments = pgSpaceFact(
  OpenCommentsFact,
  (sql, ids) => sql`(SELECT ${jsonArray(sql, "o")} FROM (${openCommentCounts(sql, ids)}) o)`,
  gathered(OpenCountRow, (rows): ReadonlyMap<SpaceId, number> => new Map(rows.map((count) => [count.spaceId, count.open])))
)

/** A space with its access, a change request, a comment and a reply, in one statement. */
export const PgSpaceCommentReads = Layer.effect(
  SpaceCommentReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = findOne(
      Schema.Tuple(SpaceId, UserId, Schema.Union(ChangeRequestId, Schema.Number), CommentId, Schema.NullOr(CommentReplyId)),
      Schema.Struct({
        ...accessFields(SpaceRow),
        change_request: Schema.NullOr(ChangeRequestRow),
        comment: Schema.NullOr(CommentRow),
        reply: Schema.NullOr(ReplyRow)
      }),
      ([spaceId, userId, key, commentId, replyId]) =>
        // Subqueries rather than two more outer joins: PGlite's PostgreSQL matched a reply through the comment's id in
        // the join condition even where the comment's row was null-extended.
        sql`SELECT ${accessColumns(sql, "spaces")}, to_json(c) AS change_request,
          (SELECT to_json(cm) FROM comments cm WHERE cm.id = ${commentId} AND cm.change_request_id = c.id) AS comment,
          (SELECT to_json(r) FROM comment_replies r JOIN comments cm ON cm.id = r.comment_id
            WHERE r.id = ${replyId} AND r.comment_id = ${commentId} AND cm.change_request_id = c.id) AS reply
        ${withChangeRequest(sql, userId, key)} WHERE i.id = ${spaceId}`
    )
    return SpaceCommentReads.of({
      find: (spaceId, userId, key, commentId, replyId) =>
        Effect.map(
          find([spaceId, userId, keyOf(key), commentId, Option.getOrNull(replyId)]),
          Option.map((row) => ({
            ...asItemForAccess(row),
            changeRequest: Option.fromNullable(row.change_request),
            comment: Option.fromNullable(row.comment),
            reply: Option.fromNullable(row.reply)
          }))
        )
    })
  })
)

/** What a view of change requests reads of users and comments, in one statement. */
export const PgChangeRequestViewFacts = Layer.effect(
  ChangeRequestViewFacts,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const read = single(
      Schema.Tuple(Schema.Array(UserId), Schema.Array(ChangeRequestId)),
      Schema.Struct({ users: Schema.Array(UserRow), open_comments: Schema.Array(OpenByChangeRequestRow) }),
      ([userIds, changeRequestIds]) =>
        sql`SELECT
          (SELECT ${jsonArray(sql, "u")} FROM users u WHERE u.id = ANY(${userIds}::text[])) AS users,
          (SELECT ${jsonArray(sql, "o")} FROM (${openByChangeRequestOf(sql, changeRequestIds)}) o) AS open_comments`
    )
    return ChangeRequestViewFacts.of({
      of: (changeRequests) =>
        changeRequests.length === 0
          ? Effect.succeed({ authors: new Map(), openComments: new Map() })
          : Effect.map(
            read([[...new Set(changeRequests.map((cr) => cr.createdBy))], changeRequests.map((cr) => cr.id)]),
            (row) => ({
              authors: new Map(row.users.map((user) => [user.id, user])),
              openComments: new Map(row.open_comments.map((count) => [count.changeRequestId, count.open]))
            })
          )
    })
  })
)

/** What views of comments read of reactions, replies and users, in one statement. */
export const PgCommentViewFacts = Layer.effect(
  CommentViewFacts,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const read = single(
      Schema.Tuple(Schema.Array(Schema.Union(CommentId, CommentReplyId)), Schema.Array(CommentId), Schema.Array(UserId)),
      Schema.Struct({ reactions: Schema.Array(ReactionRow), repliers: Schema.Array(ReplierRow), users: Schema.Array(UserRow) }),
      ([subjects, commentIds, userIds]) =>
        sql`WITH r AS (${reactionsTo(sql, subjects)}), p AS (${repliersTo(sql, commentIds)})
        SELECT
          (SELECT ${jsonArray(sql, "r")} FROM r) AS reactions,
          (SELECT ${jsonArray(sql, "p")} FROM p) AS repliers,
          (SELECT ${jsonArray(sql, "u")} FROM users u
            WHERE u.id = ANY(${userIds}::text[]) OR u.id IN (SELECT user_id FROM r) OR u.id IN (SELECT user_id FROM p)) AS users`
    )
    return CommentViewFacts.of({
      of: (asked) =>
        asked.subjects.length === 0 && asked.users.length === 0
          ? Effect.succeed({ reactions: new Map(), repliers: new Map(), users: new Map() })
          : Effect.map(read([asked.subjects, asked.repliersOf, [...new Set(asked.users)]]), (row) => ({
            reactions: reactionsBySubject(row.reactions),
            repliers: repliersByComment(row.repliers),
            users: new Map(row.users.map((user) => [user.id, user]))
          }))
    })
  })
)
