import * as SqlClient from "@effect/sql/SqlClient"
import { Revision, RevisionId, RevisionRepository } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { execute, findOne, rowOf } from "../shared/Rows.js"

export const RevisionRow = rowOf(Revision)

export const RevisionRepositoryLive = Layer.effect(
  RevisionRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    RevisionRepository.of({
      insert: execute(RevisionRow, (row) => sql`INSERT INTO revisions ${sql.insert(row)}`),
      findById: findOne(RevisionId, RevisionRow, (id) => sql`SELECT * FROM revisions WHERE id = ${id}`)
    }))
)
