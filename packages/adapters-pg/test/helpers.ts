import type * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { type Keyset, type Page, type PageRequest, type StoragePorts } from "@octavo/domain"
import { Effect, Exit, Layer, Option } from "effect"
import { PgliteClient, PgServerClientInFreshSchema } from "../src/shared/index.js"
import { PgStorage } from "../src/PgStorage.js"

/** The Postgres server to test against; the tests for it register only when it is set. */
export const serverUrl: string | undefined = process.env["OCTAVO_TEST_DATABASE_URL"] || undefined

/** Fresh, empty storage in an in-memory PGlite. */
export const pgliteStorage = (): Layer.Layer<StoragePorts> => PgStorage.pipe(Layer.provide(PgliteClient({})))

/** Fresh, empty storage in a new schema of the server, dropped afterwards. */
export const serverStorage = (url: string): Layer.Layer<StoragePorts> =>
  PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(url)), Layer.orDie)

/** The storages every behaviour is checked on: PGlite always, the server when configured. */
export const storages: ReadonlyArray<readonly [name: string, make: () => Layer.Layer<StoragePorts>]> = [
  ["PGlite", pgliteStorage],
  ...(serverUrl === undefined ? [] : [["Postgres server", () => serverStorage(serverUrl)] as const])
]

/** The clients of those storages, for tests that look at the tables themselves. */
export const sqlClients: ReadonlyArray<readonly [name: string, make: () => Layer.Layer<SqlClient.SqlClient>]> = [
  ["PGlite", () => PgliteClient({})],
  ...(serverUrl === undefined ? [] : [["Postgres server", () => Layer.orDie(PgServerClientInFreshSchema(serverUrl))] as const])
]

/** A table `items` of three rows with a date, a jsonb and an int8 column; reads of one row, with and without parameters. */
export const itemsTable = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    yield* sql`CREATE TABLE items (id integer PRIMARY KEY, title text NOT NULL, at timestamptz, tags jsonb, n int8)`
    const at = new Date("2026-01-02T03:04:05.678Z")
    for (let id = 1; id <= 3; id++) {
      yield* sql`INSERT INTO items ${sql.insert({ id, title: `Item ${id}`, at, tags: JSON.stringify({ id }), n: 10 ** 12 + id })}`
    }
    return {
      at,
      read: (id: number) => sql<Record<string, unknown>>`SELECT * FROM items WHERE id = ${id}`,
      /** Without parameters a statement is sent as it is, unprepared. */
      unprepared: (id: number) => sql.unsafe<Record<string, unknown>>(`SELECT * FROM items WHERE id = ${id}`)
    }
  })

/** On `itemsTable`'s rows: a refused statement fails as before, a failed transaction rolls back, and the client goes on. */
export const refusalsLeaveItemsUsable = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const read = (id: number) => sql<Record<string, unknown>>`SELECT * FROM items WHERE id = ${id}`
    const duplicate = yield* Effect.flip(sql`INSERT INTO items (id, title) VALUES (${1}, ${"again"})`)
    expect((duplicate.cause as { code?: string }).code).toBe("23505")
    const failed = yield* Effect.exit(sql.withTransaction(Effect.gen(function*() {
      yield* sql`UPDATE items SET title = ${"changed"} WHERE id = ${2}`
      return yield* sql`INSERT INTO items (id, title) VALUES (${3}, ${"again"})`
    })))
    expect(Exit.isFailure(failed)).toBe(true)
    expect(yield* read(2)).toMatchObject([{ title: "Item 2" }])
    expect(yield* sql`UPDATE items SET title = ${"changed"} WHERE id = ${2}`).toEqual([])
    expect(yield* read(2)).toMatchObject([{ title: "changed" }])
  })

/** Walks every page of a list from the start and checks each one against the reference. */
export const walkPages = <A>(
  list: (request: PageRequest) => Effect.Effect<Page<A>>,
  reference: (request: PageRequest) => Page<A>,
  limit: number
) =>
  Effect.gen(function*() {
    let after: Option.Option<Keyset> = Option.none()
    let seen = 0
    for (let pageNumber = 0; pageNumber < 1000; pageNumber++) {
      const request: PageRequest = { limit, after }
      const page = yield* list(request)
      expect(page).toEqual(reference(request))
      seen += page.items.length
      if (Option.isNone(page.next)) break
      after = page.next
    }
    return seen
  })
