import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { ChangeRequest, ChangeRequestId, ChangeRequestRepository, conflicts, RevisionId, SpaceId } from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { execute, findAll, findOne, rowOf, single, write } from "../shared/Rows.js"
import { byCreation, conflictOnUnique, type Ids, oneOf, selectPage } from "../shared/Sql.js"

export const ChangeRequestRow = rowOf(ChangeRequest)

/** The change requests of a space, counted by status. */
export const CountsRow = Schema.Struct({
  spaceId: SpaceId.pipe(Schema.propertySignature, Schema.fromKey("space_id")),
  total: Schema.Number,
  open: Schema.Number,
  draft: Schema.Number
})

/** The change requests of those of the spaces that have any, counted by status: one `CountsRow` each. */
export const changeRequestCounts = (sql: SqlClient.SqlClient, spaceIds: Ids) =>
  sql`SELECT space_id, count(*)::int AS total,
      count(*) FILTER (WHERE status = 'open')::int AS open,
      count(*) FILTER (WHERE status = 'draft')::int AS draft
    FROM change_requests WHERE ${oneOf(sql, "space_id", spaceIds)} GROUP BY space_id`

export const ChangeRequestRepositoryLive = Layer.effect(
  ChangeRequestRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const insert = write(ChangeRequestRow, (row) => sql`INSERT INTO change_requests ${sql.insert(row)}`)
    const findByNumber = findOne(
      Schema.Tuple(SpaceId, Schema.Number),
      ChangeRequestRow,
      ([spaceId, number]) => sql`SELECT * FROM change_requests WHERE space_id = ${spaceId} AND number = ${number}`
    )
    const findByRevision = findOne(
      Schema.Tuple(SpaceId, RevisionId),
      ChangeRequestRow,
      ([spaceId, revisionId]) => sql`SELECT * FROM change_requests WHERE space_id = ${spaceId} AND revision_id = ${revisionId} LIMIT 1`
    )
    const lastNumber = single(
      SpaceId,
      Schema.Struct({ last: Schema.Number }),
      (spaceId) => sql`SELECT coalesce(max(number), 0)::int AS last FROM change_requests WHERE space_id = ${spaceId}`
    )
    const counts = findAll(Schema.Array(SpaceId), CountsRow, (spaceIds) => changeRequestCounts(sql, spaceIds))

    return ChangeRequestRepository.of({
      insert: (cr) =>
        guarded(insert(cr), (constraint) =>
          constraint === "change_requests_number_key"
            ? conflicts.changeRequestNumberTaken(cr.number)
            : conflicts.idTaken("change request", cr.id)),
      update: execute(
        ChangeRequestRow,
        (row) => sql`UPDATE change_requests SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`
      ),
      findById: findOne(ChangeRequestId, ChangeRequestRow, (id) => sql`SELECT * FROM change_requests WHERE id = ${id}`),
      findByNumber: (spaceId, number) => findByNumber([spaceId, number]),
      findByRevision: (spaceId, revisionId) => findByRevision([spaceId, revisionId]),
      lastNumber: (spaceId) => Effect.map(lastNumber(spaceId), (row) => row.last),
      list: (spaceId, filter, page) => {
        const where: Array<Fragment> = [sql`c.space_id = ${spaceId}`]
        if (filter.status !== undefined) where.push(sql`c.status = ${filter.status}`)
        return selectPage(sql, {
          select: sql`c.*`,
          from: sql`FROM change_requests c`,
          where,
          ...byCreation("c", "desc"),
          page,
          row: ChangeRequestRow
        })
      },
      countsFor: (spaceIds) =>
        spaceIds.length === 0
          ? Effect.succeed(new Map())
          : Effect.map(counts(spaceIds), (rows) => new Map(rows.map(({ spaceId, ...count }) => [spaceId, count])))
    })
  })
)
