import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgliteClient } from "../src/shared/index.js"

const count = (sql: SqlClient.SqlClient, table: "counter" | "items") =>
  Effect.map(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`, (rows) => rows[0]?.n)

describe("PgliteClient", () => {
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
