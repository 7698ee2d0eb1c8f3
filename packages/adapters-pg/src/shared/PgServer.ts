import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Layer } from "effect"
import pg from "pg"

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

/** How many statements one connection keeps prepared; past that, the least recently used are closed. */
export const PREPARED_PER_CONNECTION = 256

/** How many of the least recently used statements are closed at once, in one round trip, when the kept are full. */
const CLOSED_AT_ONCE = 32

/** A statement that may change a table's shape: a kept statement reading that table would fail with the old one. */
const SHAPE_CHANGE = /\b(?:CREATE|ALTER|DROP|TRUNCATE)\s/i

type Callback = (error: Error | null, result?: unknown) => void
type Query = (config: unknown, values?: unknown, callback?: Callback) => unknown

/** Marks `key` as the most recently used of `map`. */
const touch = <V>(map: Map<string, V>, key: string, value: V) => {
  map.delete(key)
  map.set(key, value)
}

/**
 * Keeps the statements a connection sends with parameters prepared, by their text, so that PostgreSQL parses and
 * analyzes each once per connection rather than on every run, and may keep its plan (node-postgres prepares a query
 * that has a `name`). A text is prepared on its second run, so one-off texts (an `IN` list of a rare length) do not
 * crowd the kept ones out. At most PREPARED_PER_CONNECTION are kept; past that the least recently used are closed,
 * CLOSED_AT_ONCE in one round trip. Before a statement that may change a table's shape, the connection closes them
 * all. A kept statement that fails because a table changed shape under it (on another connection or server:
 * SQLSTATE 0A000) is closed, so that its next run prepares it again, and is run once more unprepared: outside a
 * transaction the caller sees no failure. Statements without parameters, and queries given as objects, are sent as
 * they are.
 */
const keepPrepared = (client: pg.PoolClient) => {
  const send = client.query.bind(client) as Query
  const parsed = (client as unknown as { readonly connection: { parsedStatements: Record<string, string> } }).connection
  /** Kept statements' names by text, least recently used first. */
  const names = new Map<string, string>()
  /** Texts run once, unprepared, least recently seen first. */
  const seen = new Map<string, true>()
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
      if (names.size === 0 || !SHAPE_CHANGE.test(config)) return send(config, values, callback)
      names.clear()
      return send("DEALLOCATE ALL", undefined, () => {
        parsed.parsedStatements = {}
        send(config, values, callback)
      })
    }
    let name = names.get(config)
    const closed: Array<string> = []
    if (name === undefined) {
      if (!seen.has(config)) {
        touch(seen, config, true)
        if (seen.size > PREPARED_PER_CONNECTION) seen.delete(seen.keys().next().value as string)
        return send(config, values, callback)
      }
      seen.delete(config)
      name = `octavo_${made++}`
      if (names.size >= PREPARED_PER_CONNECTION) {
        for (const [text, oldName] of names) {
          if (closed.length === CLOSED_AT_ONCE) break
          names.delete(text)
          closed.push(oldName)
        }
      }
    }
    touch(names, config, name)
    const kept = name
    const run = () =>
      send({ name: kept, text: config, values }, undefined, (error, result) => {
        if (error === null || (error as { readonly code?: string }).code !== "0A000" || names.get(config) !== kept) {
          return callback(error, result)
        }
        // A table changed shape under the kept plan: close it and run the text once more, unprepared. Inside a
        // transaction the failure has aborted it, so that run fails too, and the first error is the answer.
        names.delete(config)
        close([kept], () => send(config, values, (again, rows) => again === null ? callback(null, rows) : callback(error, result)))
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
