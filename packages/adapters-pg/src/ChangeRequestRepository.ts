import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  type ChangeRequest,
  type ChangeRequestCounts,
  type ChangeRequestId,
  ChangeRequestRepository,
  type ChangeRequestStatus,
  conflicts,
  type RevisionId,
  type SpaceId,
  type UserId
} from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { conflictOnUnique, type Millis, selectPage, toDate, toOptionalDate } from "./Sql.js"

interface ChangeRequestRow {
  readonly id: ChangeRequestId
  readonly space_id: SpaceId
  readonly number: number
  readonly status: ChangeRequestStatus
  readonly subject: string
  readonly initial_revision_id: RevisionId
  readonly base_revision_id: RevisionId
  readonly revision_id: RevisionId
  readonly created_by: UserId
  readonly created_at: Millis
  readonly updated_at: Millis
  readonly merged_at: Millis | null
}

const toChangeRequest = (row: ChangeRequestRow): ChangeRequest => {
  const mergedAt = toOptionalDate(row.merged_at)
  return {
    id: row.id,
    spaceId: row.space_id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    initialRevisionId: row.initial_revision_id,
    baseRevisionId: row.base_revision_id,
    revisionId: row.revision_id,
    createdBy: row.created_by,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    ...(mergedAt === undefined ? {} : { mergedAt })
  }
}

export const ChangeRequestRepositoryLive = Layer.effect(
  ChangeRequestRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const findOne = (rows: Effect.Effect<ReadonlyArray<ChangeRequestRow>, unknown>) =>
      rows.pipe(Effect.map((found) => Option.map(Option.fromNullable(found[0]), toChangeRequest)), Effect.orDie)

    return ChangeRequestRepository.of({
      insert: (cr) =>
        guarded(
          sql`INSERT INTO change_requests (id, space_id, number, status, subject, initial_revision_id, base_revision_id,
              revision_id, created_by, created_at, updated_at, merged_at)
            VALUES (${cr.id}, ${cr.spaceId}, ${cr.number}, ${cr.status}, ${cr.subject}, ${cr.initialRevisionId},
              ${cr.baseRevisionId}, ${cr.revisionId}, ${cr.createdBy}, ${cr.createdAt.getTime()}, ${cr.updatedAt.getTime()},
              ${cr.mergedAt?.getTime() ?? null})`,
          (constraint) => constraint === "change_requests_number_key" ? conflicts.changeRequestNumberTaken(cr.number) : conflicts.idTaken("change request", cr.id)
        ).pipe(Effect.asVoid),
      update: (cr) =>
        sql`UPDATE change_requests SET status = ${cr.status}, subject = ${cr.subject},
            base_revision_id = ${cr.baseRevisionId}, revision_id = ${cr.revisionId},
            updated_at = ${cr.updatedAt.getTime()}, merged_at = ${cr.mergedAt?.getTime() ?? null}
          WHERE id = ${cr.id}`.pipe(Effect.asVoid, Effect.orDie),
      findById: (id) => findOne(sql<ChangeRequestRow>`SELECT * FROM change_requests WHERE id = ${id}`),
      findByNumber: (spaceId, number) =>
        findOne(sql<ChangeRequestRow>`SELECT * FROM change_requests WHERE space_id = ${spaceId} AND number = ${number}`),
      lastNumber: (spaceId) =>
        sql<{ readonly last: number }>`SELECT coalesce(max(number), 0)::int AS last FROM change_requests
          WHERE space_id = ${spaceId}`.pipe(Effect.map((rows) => rows[0]?.last ?? 0), Effect.orDie),
      list: (spaceId, filter, page) => {
        const where: Array<Fragment> = [sql`c.space_id = ${spaceId}`]
        if (filter.status !== undefined) where.push(sql`c.status = ${filter.status}`)
        return selectPage(sql, {
          select: sql`c.*`,
          from: sql`FROM change_requests c`,
          where,
          keyset: { value: "c.created_at", id: "c.id" },
          order: "desc",
          page,
          toItem: toChangeRequest,
          keysetOf: (cr) => [cr.createdAt.getTime(), cr.id]
        })
      },
      countsFor: (spaceIds) =>
        spaceIds.length === 0
          ? Effect.succeed(new Map())
          : sql<{ readonly space_id: SpaceId; readonly total: number; readonly open: number; readonly draft: number }>`
              SELECT space_id, count(*)::int AS total,
                count(*) FILTER (WHERE status = 'open')::int AS open,
                count(*) FILTER (WHERE status = 'draft')::int AS draft
              FROM change_requests WHERE ${sql.in("space_id", spaceIds)} GROUP BY space_id`.pipe(
            Effect.map((rows) => new Map(rows.map((r): [SpaceId, ChangeRequestCounts] => [r.space_id, { total: r.total, open: r.open, draft: r.draft }]))),
            Effect.orDie
          )
    })
  })
)
