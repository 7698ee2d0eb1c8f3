import * as SqlClient from "@effect/sql/SqlClient"
import {
  type ChangeRequestCounts,
  ChangeRequestCountsFact,
  ChangeRequestId,
  type ChangeRequestKey,
  SpaceChangeRequestReads,
  SpaceId,
  UserId
} from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { findOne } from "../shared/Rows.js"
import { accessColumns, accessFields, accessFrom, asItemForAccess } from "../spaces/ForAccess.js"
import { gathered, jsonArray, pgSpaceFact } from "../spaces/Facts.js"
import { SpaceRow } from "../spaces/SpaceRepository.js"
import { ChangeRequestRow, changeRequestCounts, CountsRow } from "./ChangeRequestRepository.js"

/** The change requests of the spaces counted by status, on views of spaces: one JSON array of `CountsRow`. */
export const PgChangeRequestCounts = pgSpaceFact(
  ChangeRequestCountsFact,
  (sql, ids) => sql`(SELECT ${jsonArray(sql, "c")} FROM (${changeRequestCounts(sql, ids)}) c)`,
  gathered(CountsRow, (rows): ReadonlyMap<SpaceId, ChangeRequestCounts> => new Map(rows.map(({ spaceId, ...count }) => [spaceId, count])))
)

/** A change request's key as one parameter: its number or its id. */
export const keyOf = (key: ChangeRequestKey): number | ChangeRequestId => "id" in key ? key.id : key.number

/** The tables of `accessColumns` for a space `i`, with its change request `c` of `key` (NULL when there is none). */
export const withChangeRequest = (sql: SqlClient.SqlClient, userId: string, key: number | string) =>
  sql`${accessFrom(sql, "spaces", userId)}
    LEFT JOIN change_requests c ON c.space_id = i.id AND ${typeof key === "number" ? sql`c.number = ${key}` : sql`c.id = ${key}`}`

/** A space with its access and one of its change requests, in one statement. */
export const PgSpaceChangeRequestReads = Layer.effect(
  SpaceChangeRequestReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = findOne(
      Schema.Tuple(SpaceId, UserId, Schema.Union(ChangeRequestId, Schema.Number)),
      Schema.Struct({ ...accessFields(SpaceRow), change_request: Schema.NullOr(ChangeRequestRow) }),
      ([spaceId, userId, key]) =>
        sql`SELECT ${accessColumns(sql, "spaces")}, to_json(c) AS change_request
        ${withChangeRequest(sql, userId, key)} WHERE i.id = ${spaceId}`
    )
    return SpaceChangeRequestReads.of({
      find: (spaceId, userId, key) =>
        Effect.map(
          find([spaceId, userId, keyOf(key)]),
          Option.map((row) => ({ ...asItemForAccess(row), changeRequest: Option.fromNullable(row.change_request) }))
        )
    })
  })
)
