import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/** One step of the schema, applied once and recorded in `octavo_migrations`. */
export interface Migration {
  readonly id: number
  readonly name: string
  /** Plain SQL; may hold several statements. */
  readonly sql: string
}

// Any constant will do as long as every Octavo server uses the same one.
const MIGRATION_LOCK = 7_244_617_236_240_191n

/**
 * Applies the migrations not yet recorded (by id), in one transaction. The transaction-scoped advisory lock
 * makes servers that start at the same time take turns: the second one finds everything applied.
 */
export const migrateTo = (
  migrations: ReadonlyArray<Migration>
): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(${sql.literal(MIGRATION_LOCK.toString())})`
      yield* sql`CREATE TABLE IF NOT EXISTS octavo_migrations (
        id integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`
      const rows = yield* sql<{ readonly id: number }>`SELECT id FROM octavo_migrations`
      const applied = new Set(rows.map((row) => row.id))
      for (const migration of migrations) {
        if (applied.has(migration.id)) continue
        yield* sql.unsafe(migration.sql).unprepared
        yield* sql`INSERT INTO octavo_migrations (id, name) VALUES (${migration.id}, ${migration.name})`
        yield* Effect.logInfo(`Applied migration ${migration.id}: ${migration.name}`)
      }
    }))
  })
