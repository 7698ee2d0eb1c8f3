import type * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import { type Keyset, type Page, type PageRequest, type StoragePorts } from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
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
