import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { migration as organizations } from "./migrations/0001_organizations.js"
import { migration as spaces } from "./migrations/0002_spaces.js"
import { migration as content } from "./migrations/0003_content.js"
import { migration as changeRequests } from "./migrations/0004_change_requests.js"
import { migration as search } from "./migrations/0005_search.js"
import { migration as searchSpaces } from "./migrations/0006_search_spaces.js"

/** One step of the schema, applied once and recorded in `octavo_migrations`. */
export interface Migration {
  readonly id: number
  readonly name: string
  /** Plain SQL; may hold several statements. */
  readonly sql: string
}

/** Every migration, in the order they apply. Append; never edit one that has shipped. */
export const migrations: ReadonlyArray<Migration> = [organizations, spaces, content, changeRequests, search, searchSpaces]

// Any constant will do as long as every Octavo server uses the same one.
const MIGRATION_LOCK = 7_244_617_236_240_191n

/**
 * Applies the migrations not yet recorded, in one transaction. The transaction-scoped advisory lock
 * makes servers that start at the same time take turns: the second one finds everything applied.
 */
export const migrate: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
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
