import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { KEPT_STATEMENTS } from "../src/shared/KeptStatements.js"
import { PgServerClient, PgServerClientInFreshSchema, withSearchPath } from "../src/shared/PgServer.js"
import { itemsTable, refusalsLeaveItemsUsable, serverUrl } from "./helpers.js"

if (serverUrl !== undefined) {
  const url = serverUrl
  describe("PostgreSQL server client", () => {
    it.live(
      "keeps statements prepared: answers and errors as unprepared ones, past the kept number and a change of shape",
      () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const { at, read, unprepared } = yield* itemsTable(sql)
          const prepared = sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`
          // The same text many times over, each run with its own values; PostgreSQL's plan may go generic after five.
          for (let round = 0; round < 12; round++) {
            const id = (round % 3) + 1
            const rows = yield* read(id)
            expect(rows).toEqual([{ id, title: `Item ${id}`, at, tags: { id }, n: String(10 ** 12 + id) }])
            expect(rows).toEqual(yield* unprepared(id))
          }
          expect(yield* read(99)).toEqual([])
          expect(yield* sql`SELECT ${null}::text AS nothing, ${true}::boolean AS yes`.values).toEqual([[null, true]])

          // One connection, for the count of what it keeps: a transaction holds one.
          const kept = yield* sql.withTransaction(Effect.gen(function*() {
            const before = (yield* sql.unsafe<{ readonly n: number }>(
              "SELECT count(*)::int AS n FROM pg_prepared_statements"
            ))[0]!.n
            // A text this connection has not sent before: unprepared on its first run, prepared on its second.
            const fresh = sql`SELECT id FROM items WHERE id = ${1} AND title <> ${"never sent before"}`
            yield* fresh
            const once = (yield* prepared)[0]!.n
            yield* fresh
            const withRead = (yield* prepared)[0]!.n
            // More texts than are kept: the oldest are closed and prepared again when they come back.
            for (let k = 0; k < KEPT_STATEMENTS + 40; k++) {
              for (let run = 0; run < 2; run++) {
                const rows = yield* sql<{ readonly v: number }>`SELECT ${k}::int + ${k % 7}::int AS v${sql.literal(String(k))}`
                expect(rows).toEqual([{ [`v${k}`]: k + (k % 7) }])
              }
            }
            expect(yield* read(2)).toHaveLength(1)
            return { before, once, withRead, after: (yield* prepared)[0]!.n }
          }))
          expect(kept.once).toBe(kept.before)
          expect(kept.withRead).toBe(kept.before + 1)
          expect(kept.after).toBeGreaterThan(KEPT_STATEMENTS - 40)
          expect(kept.after).toBeLessThanOrEqual(KEPT_STATEMENTS)

          // A kept statement over a table whose shape changes is prepared again, inside the transaction that changes it.
          const changed = yield* sql.withTransaction(Effect.gen(function*() {
            yield* read(1)
            yield* sql`ALTER TABLE items ADD COLUMN extra text NOT NULL DEFAULT 'x'`
            return yield* read(1)
          }))
          expect(changed).toEqual([{ id: 1, title: "Item 1", at, tags: { id: 1 }, n: String(10 ** 12 + 1), extra: "x" }])

          yield* refusalsLeaveItemsUsable(sql)
        }).pipe(Effect.provide(Layer.orDie(PgServerClientInFreshSchema(url)))),
      30_000
    )

    it.live("with prepared statements off, sends every statement unprepared", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.withTransaction(Effect.gen(function*() {
          for (let round = 0; round < 8; round++) {
            expect(yield* sql<{ readonly v: number }>`SELECT ${round}::int * ${2}::int AS v`).toEqual([{ v: round * 2 }])
          }
          expect(yield* sql`SELECT count(*)::int AS n FROM pg_prepared_statements`).toEqual([{ n: 0 }])
        }))
      }).pipe(Effect.provide(Layer.orDie(PgServerClient(url, { preparedStatements: false })))))

    it.live("a table changed by another server under a kept statement: the next read answers the new shape", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const schema = `test_shape_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
        yield* sql.unsafe(`CREATE SCHEMA ${schema}`)
        const inSchema = withSearchPath(url, schema)
        const other = (statement: string) =>
          Effect.flatMap(SqlClient.SqlClient, (client) => client.unsafe(statement)).pipe(
            Effect.provide(PgServerClient(inSchema))
          )
        yield* Effect.gen(function*() {
          yield* other("CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)")
          yield* other("INSERT INTO notes VALUES (1, 'one'), (2, 'two')")
          const ours = yield* SqlClient.SqlClient
          const read = (id: number) => ours<Record<string, unknown>>`SELECT * FROM notes WHERE id = ${id}`
          // Read often enough that every connection this pool opened keeps the statement.
          for (let round = 0; round < 12; round++) expect(yield* read(1)).toEqual([{ id: 1, body: "one" }])
          // Another server (another pool) adds a column: the kept plan's result no longer fits.
          yield* other("ALTER TABLE notes ADD COLUMN tag text NOT NULL DEFAULT 't'")
          expect(yield* read(2)).toEqual([{ id: 2, body: "two", tag: "t" }])
          expect(yield* read(1)).toEqual([{ id: 1, body: "one", tag: "t" }])
        }).pipe(Effect.provide(PgServerClient(inSchema)))
        yield* sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)
      }).pipe(Effect.provide(Layer.orDie(PgServerClient(url)))), 30_000)
  })
}
