import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Layer } from "effect"
import pg from "pg"
import { keptStatements } from "./KeptStatements.js"

/** The url with `-c name=value` after the options its connections start with, so that it wins. */
const withSetting = (url: string, name: string, value: string): string => {
  const parsed = new URL(url)
  const options = parsed.searchParams.get("options")
  parsed.searchParams.set("options", `${options === null ? "" : `${options} `}-c ${name}=${value}`)
  return parsed.toString()
}

/**
 * A SqlClient over a Postgres server. Column names are not transformed: the adapters write
 * snake_case SQL and map rows themselves. node-postgres parses timestamptz into Date. Each connection keeps the
 * statements it sends prepared (`keepPrepared`), unless `preparedStatements` is false.
 *
 * JIT compilation is off for Octavo's connections, unless the url's `options` set `jit`: its
 * statements read a few rows by key, and when the planner over-estimates one (a recursive walk, a
 * table not analyzed yet) compiling it costs hundreds of milliseconds where running it costs a few.
 */
export const PgServerClient = (
  url: string,
  options: { readonly preparedStatements: boolean } = { preparedStatements: true }
): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  PgClient.layerFromPool({ acquire: poolOf(url, options.preparedStatements), applicationName: "octavo" })

/** The pool of Octavo's connections to `url`, their statements kept prepared if `prepared`; checked with a first statement. */
const poolOf = (url: string, prepared: boolean) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new pg.Pool({
        connectionString: /\bjit=/.test(new URL(url).searchParams.get("options") ?? "") ? url : withSetting(url, "jit", "off"),
        application_name: "octavo"
      })
      // A connection that fails while idle leaves the pool; the next statement that needs one opens another.
      pool.on("error", () => {})
      if (prepared) pool.on("connect", keepPrepared)
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption("1 second"))
  ).pipe(
    Effect.tap((pool) =>
      Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(
        Effect.timeoutFail({
          duration: "5 seconds",
          onTimeout: () => new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
        })
      )
    )
  )

/** How many of the least recently used statements are closed at once, in one round trip, when the kept are full. */
const CLOSED_AT_ONCE = 32

type Callback = (error: Error | null, result?: unknown) => void
type Query = (config: unknown, values?: unknown, callback?: Callback) => unknown

/**
 * Keeps the statements a connection sends with parameters prepared, by their text (`keptStatements`: from a text's
 * second run, at most KEPT_STATEMENTS, CLOSED_AT_ONCE closed in one round trip past that), so that PostgreSQL parses
 * and analyzes each once per connection rather than on every run, and may keep its plan (node-postgres prepares a
 * query that has a `name`). Before a statement that may change a table's shape, the connection closes them all. A
 * kept statement that fails because a table changed shape under it (on another connection or server: SQLSTATE 0A000)
 * is closed, so that its next run prepares it again, and is run once more unprepared: outside a transaction the
 * caller sees no failure. Statements without parameters, and queries given as objects, are sent as they are.
 */
const keepPrepared = (client: pg.PoolClient) => {
  const send = client.query.bind(client) as Query
  const parsed = (client as unknown as { readonly connection: { parsedStatements: Record<string, string> } }).connection
  /** Statement names by text. */
  const kept = keptStatements<string>({ preparedOnRun: 2, closedAtOnce: CLOSED_AT_ONCE })
  let made = 0
  // Each statement is sent once the one before it is answered, never queued behind it (which node-postgres deprecates).
  const close = (closed: ReadonlyArray<string>, then: () => void) =>
    send(closed.map((name) => `DEALLOCATE ${name}`).join("; "), undefined, () => {
      for (const name of closed) delete parsed.parsedStatements[name]
      then()
    })
  const query: Query = (config, values, callback) => {
    if (typeof config !== "string" || typeof callback !== "function") return send(config, values, callback)
    if (!Array.isArray(values) || values.length === 0) {
      if (!kept.forgetBeforeShapeChange(config)) return send(config, values, callback)
      return send("DEALLOCATE ALL", undefined, () => {
        parsed.parsedStatements = {}
        send(config, values, callback)
      })
    }
    let name = kept.find(config)
    let closed: ReadonlyArray<string> = []
    if (name === undefined) {
      if (!kept.due(config)) return send(config, values, callback)
      name = `octavo_${made++}`
      closed = kept.keep(config, name)
    }
    const statement = name
    const run = () =>
      send({ name: statement, text: config, values }, undefined, (error, result) => {
        if (error === null || (error as { readonly code?: string }).code !== "0A000" || !kept.forget(config, statement)) {
          return callback(error, result)
        }
        // A table changed shape under the kept plan: close it and run the text once more, unprepared. Inside a
        // transaction the failure has aborted it, so that run fails too, and the first error is the answer.
        close([statement], () => send(config, values, (again, rows) => again === null ? callback(null, rows) : callback(error, result)))
      })
    return closed.length === 0 ? run() : close(closed, run)
  }
  ;(client as unknown as { query: Query }).query = query
}

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
