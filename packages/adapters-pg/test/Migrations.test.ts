import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { migrate, migrations } from "../src/Migrations.js"
import { PgliteClient, PgServerClient, PgServerClientInFreshSchema } from "../src/shared/index.js"
import { serverUrl } from "./helpers.js"

const appliedMigrations = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ readonly id: number; readonly name: string }>`SELECT id, name FROM octavo_migrations ORDER BY id`
)

const expected = migrations.map(({ id, name }) => ({ id, name }))

const tables = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ readonly table_name: string }>`SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() ORDER BY table_name`,
    (rows) => rows.map((row) => row.table_name)
  ))

const allTables = [
  "api_tokens",
  "blobs",
  "change_requests",
  "collections",
  "custom_field_values",
  "custom_fields",
  "invites",
  "members",
  "octavo_migrations",
  "organizations",
  "revision_contents",
  "revision_files",
  "revision_pages",
  "revisions",
  "search_documents",
  "search_spaces",
  "spaces",
  "team_memberships",
  "teams",
  "users"
]

/** Starts several servers' migrations at once, then once more when all have finished. */
const migrateConcurrently = Effect.gen(function*() {
  yield* Effect.all([migrate, migrate, migrate], { concurrency: "unbounded" })
  expect(yield* appliedMigrations).toEqual(expected)
  expect(yield* tables).toEqual(allTables)
  yield* migrate
  expect(yield* appliedMigrations).toEqual(expected)
})

describe("migrate", () => {
  it.live("applies each migration once when started concurrently on PGlite", () =>
    migrateConcurrently.pipe(Effect.provide(PgliteClient({}))))

  if (serverUrl !== undefined) {
    const url = serverUrl
    describe("on the Postgres server", () => {
      it.live("applies each migration once when started concurrently over several connections", () =>
        migrateConcurrently.pipe(Effect.provide(PgServerClientInFreshSchema(url))))

      it.live("runs in a schema of its own that is dropped afterwards", () =>
        Effect.gen(function*() {
          const schema = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.zipRight(
              migrate,
              Effect.map(sql<{ readonly schema: string }>`SELECT current_schema() AS schema`, (rows) => rows[0]?.schema)
            )).pipe(Effect.provide(PgServerClientInFreshSchema(url)))
          expect(schema).toMatch(/^test_[0-9a-f]{16}$/)
          const remaining = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
            sql`SELECT 1 FROM pg_namespace WHERE nspname = ${schema ?? ""}`).pipe(
              Effect.provide(Layer.orDie(PgServerClient(url)))
            )
          expect(remaining).toEqual([])
        }))
    })
  }
})
