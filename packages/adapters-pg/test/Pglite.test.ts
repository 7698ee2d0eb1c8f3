import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgliteClient } from "../src/shared/index.js"
import { KEPT_STATEMENTS } from "../src/shared/KeptStatements.js"
import { itemsTable, refusalsLeaveItemsUsable } from "./helpers.js"

const count = (sql: SqlClient.SqlClient, table: "counter" | "items") =>
  Effect.map(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`, (rows) => rows[0]?.n)

describe("PgliteClient", () => {
  it.live("keeps statements prepared: answers and errors as PGlite's own query gives them, past the kept number and a change of shape", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Without parameters a statement goes through PGlite's own query, unprepared.
      const { at, read, unprepared } = yield* itemsTable(sql)
      // The same text many times over: bound and run again, with each run's own values.
      for (let round = 0; round < 12; round++) {
        const id = (round % 3) + 1
        const rows = yield* read(id)
        expect(rows).toEqual([{ id, title: `Item ${id}`, at, tags: { id }, n: 10 ** 12 + id }])
        expect(rows).toEqual(yield* unprepared(id))
      }
      expect(yield* read(99)).toEqual([])
      expect(yield* sql`SELECT ${null}::text AS nothing, ${true}::boolean AS yes`.values).toEqual([[null, true]])
      // More texts than are kept: the oldest are closed and prepared again when they come back.
      for (let k = 0; k < KEPT_STATEMENTS + 20; k++) {
        expect(yield* sql<{ readonly v: number }>`SELECT ${k}::int + ${k % 7}::int AS v, ${String(k)} AS k${sql.literal(String(k))}`)
          .toEqual([
            { v: k + (k % 7), [`k${k}`]: String(k) }
          ])
      }
      expect(yield* read(2)).toHaveLength(1)
      // A kept statement over a table whose shape changes is prepared again, inside the transaction that changes it.
      const changed = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`ALTER TABLE items ADD COLUMN extra text NOT NULL DEFAULT 'x'`
        return yield* read(1)
      }))
      expect(changed).toEqual([{ id: 1, title: "Item 1", at, tags: { id: 1 }, n: 10 ** 12 + 1, extra: "x" }])
      yield* refusalsLeaveItemsUsable(sql)
    }).pipe(Effect.provide(PgliteClient({}))))

  it.live("runs concurrent transactions one after the other, losing no update", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE counter (n integer NOT NULL)`
      yield* sql`INSERT INTO counter VALUES (0)`
      const increment = sql.withTransaction(Effect.gen(function*() {
        const [row] = yield* sql<{ readonly n: number }>`SELECT n FROM counter`
        // Another transaction would read the same n here if they were interleaved.
        yield* Effect.sleep("10 millis")
        yield* sql`UPDATE counter SET n = ${(row?.n ?? 0) + 1}`
      }))
      yield* Effect.all(Array.from({ length: 8 }, () => increment), { concurrency: "unbounded" })
      expect(yield* sql<{ readonly n: number }>`SELECT n FROM counter`).toEqual([{ n: 8 }])
    }).pipe(Effect.provide(PgliteClient({}))))

  it.live("makes a query outside a transaction wait until the transaction has ended", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE items (id integer PRIMARY KEY)`
      const inserted = yield* Deferred.make<void>()
      const transaction = yield* Effect.fork(Effect.exit(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items VALUES (1)`
        yield* Deferred.succeed(inserted, undefined)
        yield* Effect.sleep("50 millis")
        return yield* Effect.fail("roll back" as const)
      }))))
      yield* Deferred.await(inserted)
      // On the shared connection this query would see the uncommitted row if it did not wait.
      expect(yield* count(sql, "items")).toBe(0)
      expect(yield* Fiber.join(transaction)).toEqual(Exit.fail("roll back"))
    }).pipe(Effect.provide(PgliteClient({}))))

  it.live("rolls back an interrupted transaction and serves the next one", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE items (id integer PRIMARY KEY)`
      const inserted = yield* Deferred.make<void>()
      const stuck = yield* Effect.fork(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items VALUES (1)`
        yield* Deferred.succeed(inserted, undefined)
        return yield* Effect.never
      })))
      yield* Deferred.await(inserted)
      yield* Fiber.interrupt(stuck)
      expect(yield* count(sql, "items")).toBe(0)
      yield* sql.withTransaction(sql`INSERT INTO items VALUES (2)`)
      expect(yield* count(sql, "items")).toBe(1)
    }).pipe(Effect.provide(PgliteClient({}))))

  it.live("uses savepoints for nested transactions", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE items (id integer PRIMARY KEY)`
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO items VALUES (1)`
        yield* Effect.ignore(sql.withTransaction(Effect.zipRight(sql`INSERT INTO items VALUES (2)`, Effect.fail("no"))))
        yield* sql`INSERT INTO items VALUES (3)`
      }))
      expect(yield* sql<{ readonly id: number }>`SELECT id FROM items ORDER BY id`).toEqual([{ id: 1 }, { id: 3 }])
    }).pipe(Effect.provide(PgliteClient({}))))

  it.live("keeps its data in dataDir across close and reopen", () =>
    Effect.acquireUseRelease(
      Effect.promise(() => mkdtemp(join(tmpdir(), "octavo-pglite-"))),
      (dataDir) =>
        Effect.gen(function*() {
          yield* Effect.flatMap(
            SqlClient.SqlClient,
            (sql) => Effect.zipRight(sql`CREATE TABLE items (id integer PRIMARY KEY)`, sql`INSERT INTO items VALUES (7)`)
          ).pipe(
            Effect.provide(PgliteClient({ dataDir }))
          )
          const rows = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT id FROM items`).pipe(
            Effect.provide(PgliteClient({ dataDir }))
          )
          expect(rows).toEqual([{ id: 7 }])
        }),
      (dataDir) => Effect.promise(() => rm(dataDir, { recursive: true, force: true }))
    ))
})
