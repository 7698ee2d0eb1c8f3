import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Layer, Redacted } from "effect"

/** The url with `-c name=value` after the options its connections start with, so that it wins. */
const withSetting = (url: string, name: string, value: string): string => {
  const parsed = new URL(url)
  const options = parsed.searchParams.get("options")
  parsed.searchParams.set("options", `${options === null ? "" : `${options} `}-c ${name}=${value}`)
  return parsed.toString()
}

/**
 * A SqlClient over a Postgres server. Column names are not transformed: the adapters write
 * snake_case SQL and map rows themselves. node-postgres parses timestamptz into Date.
 *
 * JIT compilation is off for Octavo's connections, unless the url's `options` set `jit`: its
 * statements read a few rows by key, and when the planner over-estimates one (a recursive walk, a
 * table not analyzed yet) compiling it costs hundreds of milliseconds where running it costs a few.
 */
export const PgServerClient = (url: string): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  PgClient.layer({
    url: Redacted.make(/\bjit=/.test(new URL(url).searchParams.get("options") ?? "") ? url : withSetting(url, "jit", "off")),
    applicationName: "octavo"
  })

/** The url with a search_path set for every connection of the pool. */
export const withSearchPath = (url: string, schema: string): string => withSetting(url, "search_path", schema)

const randomSchemaName = (): string => {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8))
  return `test_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`
}

const onServer = (url: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, SqlError>) =>
  Effect.flatMap(SqlClient.SqlClient, statement).pipe(Effect.provide(PgServerClient(url)))

/**
 * A SqlClient over a Postgres server whose connections see only a new, empty schema;
 * the schema is dropped when the layer's scope closes. Each build gives fresh storage,
 * so tests (or several servers' worth of tests) can share one database.
 */
export const PgServerClientInFreshSchema = (url: string): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const schema = randomSchemaName()
      yield* Effect.acquireRelease(
        onServer(url, (sql) => sql`CREATE SCHEMA ${sql(schema)}`),
        () => Effect.orDie(onServer(url, (sql) => sql`DROP SCHEMA ${sql(schema)} CASCADE`))
      )
      return PgServerClient(withSearchPath(url, schema))
    })
  )
