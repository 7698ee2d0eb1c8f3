import * as SqlClient from "@effect/sql/SqlClient"
import { type Revision, type RevisionId, RevisionRepository, type SpaceId } from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { type Millis, toDate } from "./Sql.js"

interface RevisionRow {
  readonly id: RevisionId
  readonly space_id: SpaceId
  readonly parents: ReadonlyArray<RevisionId>
  readonly type: Revision["type"]
  readonly created_at: Millis
}

const toRevision = (row: RevisionRow): Revision => ({
  id: row.id,
  spaceId: row.space_id,
  parents: row.parents,
  type: row.type,
  createdAt: toDate(row.created_at)
})

export const RevisionRepositoryLive = Layer.effect(
  RevisionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return RevisionRepository.of({
      insert: (revision) =>
        sql`INSERT INTO revisions (id, space_id, parents, type, created_at)
          VALUES (${revision.id}, ${revision.spaceId}, ${revision.parents}::text[], ${revision.type},
            ${revision.createdAt.getTime()})`.pipe(Effect.asVoid, Effect.orDie),
      findById: (id) =>
        sql<RevisionRow>`SELECT * FROM revisions WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRevision)),
          Effect.orDie
        )
    })
  })
)
