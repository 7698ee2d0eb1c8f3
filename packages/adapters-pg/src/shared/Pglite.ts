import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { parse, PGlite, type PGliteOptions as Options, protocol, type QueryOptions, type Results } from "@electric-sql/pglite"
import { turnDue, turnTaken } from "@octavo/domain"
import { Effect, Layer, Stream } from "effect"
import { acquireDataDirLock, directoryOnDisk } from "./DataDirLock.js"
import { keptStatements } from "./KeptStatements.js"

export interface PgliteOptions {
  /** Where PGlite keeps its files; undefined keeps the database in memory. */
  readonly dataDir?: string | undefined
}

type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

/**
 * PostgreSQL's memory settings for one embedded user. PGlite starts with the server defaults (128 MB
 * of shared buffers, 64 MB for maintenance), and what the WASM heap once grows to it keeps. Only
 * sizes change: PGlite's own start parameters, its durability included, are kept as they are.
 */
const startParams = [
  ...PGlite.defaultStartParams,
  "-c",
  "shared_buffers=16MB",
  "-c",
  "maintenance_work_mem=16MB"
]

const startOptions = (dataDir: string | undefined): Options => ({
  startParams,
  ...(dataDir === undefined ? {} : { dataDir })
})

/**
 * Creates a new database directory in a child process. PGlite runs initdb in a second PGlite
 * instance of its own, and the memory both took (hundreds of MiB) stays with the process that ran
 * them; a child returns it all when it exits, and the server then opens the directory as on any
 * later start.
 */
const initializeInChild = (dataDir: string) =>
  Effect.async<void, SqlError>((resume) => {
    const child = execFile(
      process.execPath,
      [
        "--input-type=commonjs",
        "--eval",
        `const { module, options } = JSON.parse(process.argv[1])
        require(module).PGlite.create(options).then((db) => db.close())`,
        JSON.stringify({ module: createRequire(import.meta.url).resolve("@electric-sql/pglite"), options: startOptions(dataDir) })
      ],
      (error, _stdout, stderr) =>
        resume(
          error === null
            ? Effect.void
            : Effect.fail(new SqlError({ cause: stderr === "" ? error : stderr, message: "PGlite: failed to create the database" }))
        )
    )
    return Effect.sync(() => child.kill())
  })

const toSqlError = (cause: unknown) => new SqlError({ cause, message: "Failed to execute statement" })

/**
 * A statement's outcome, delivered after a turn of the event loop when one is due (the domain's Turns.ts, whose clock
 * every kind of waiting work shares). PGlite answers without any I/O, so a queue of requests taking turns at the
 * database would run as one chain of promise callbacks, and Node would not read its sockets (new requests, the rest
 * of a body, a new connection) until the queue was empty: under a burst of writes a new connection waited hundreds of
 * milliseconds for its first read, seconds at the 99th percentile. With the turns the server holds more requests at
 * once when it is saturated, which costs the embedded default about a fifth of its throughput there (README,
 * "Measured figures").
 */
const afterTurn = async <A>(f: () => Promise<A>): Promise<A> => {
  try {
    return await f()
  } finally {
    if (turnDue()) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      turnTaken()
    }
  }
}

type BackendMessage = Awaited<ReturnType<PGlite["execProtocolStream"]>>[number]

interface Prepared {
  readonly name: string
  readonly paramTypes: ReadonlyArray<number>
  /** The statement's row description, which an execution's answer leaves out. */
  readonly description: ReadonlyArray<BackendMessage>
}

/**
 * Statements with parameters, kept prepared by their text on PGlite's one connection. PGlite's own
 * `query` parses, analyzes and describes a statement every time, in six calls into the database;
 * a kept statement is bound and run in one, and PostgreSQL plans it as it plans any prepared
 * statement (a custom plan for the first runs, then a generic one when that costs no more). The
 * caller holds the connection (the client's permit) while a statement runs.
 */
const preparedStatements = (db: PGlite) => {
  const { serialize } = protocol
  /** At most KEPT_STATEMENTS; past that the least recently used is closed. */
  const kept = keptStatements<Prepared>({ preparedOnRun: 1, closedAtOnce: 1 })
  let made = 0

  const exchange = (parts: ReadonlyArray<Uint8Array>) =>
    db.runExclusive(() => db.execProtocolStream(Buffer.concat(parts), { syncToFs: false }))

  const prepare = async (sql: string): Promise<Prepared> => {
    const name = `octavo_${++made}`
    const answer = await exchange([serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync()])
    const prepared: Prepared = {
      name,
      paramTypes: parse.parseDescribeStatementResults(answer),
      description: answer.filter((message) => message.name === "rowDescription")
    }
    for (const statement of kept.keep(sql, prepared)) {
      await exchange([serialize.close({ type: "S", name: statement.name }), serialize.sync()])
    }
    return prepared
  }

  /** Runs `sql`, prepared the first time it comes. */
  const query = async <A>(sql: string, params: ReadonlyArray<unknown>, options: QueryOptions = {}): Promise<Results<A>> => {
    const statement = kept.find(sql) ?? await prepare(sql)
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null
      // Bytes go as they are, in the binary format: PGlite's own serializer writes bytea's hex form a byte at a time,
      // which for a 10 MiB specification held the event loop for seconds.
      if (value instanceof Uint8Array) return value
      const serializer = db.serializers[statement.paramTypes[i] ?? 0]
      return serializer !== undefined ? serializer(value) : String(value)
    })
    const answer = await exchange([
      serialize.bind({ statement: statement.name, values }),
      serialize.execute({}),
      serialize.sync()
    ])
    await db.syncToFs()
    return parse.parseResults([...statement.description, ...answer], db.parsers, options)[0] as Results<A>
  }

  /**
   * Closes every kept statement after a statement that may change tables' shapes, which a kept
   * statement inside a transaction could not recover from (its error would abort the transaction).
   */
  const afterUnprepared = async (sql: string) => {
    if (kept.forgetBeforeShapeChange(sql)) await db.exec("DEALLOCATE ALL")
  }

  return { query, afterUnprepared }
}

/**
 * A SqlClient over embedded PGlite. PGlite has a single connection, so a semaphore serializes
 * its users: a query outside a transaction holds the permit while it runs, a transaction holds
 * it from BEGIN to COMMIT or ROLLBACK, and the transaction's own queries run on the held
 * connection without asking for the permit again.
 */
export const makePgliteClient = (options: PgliteOptions) =>
  Effect.gen(function*() {
    // Two PGlite instances on one directory overwrite each other's writes; the lock outlives the
    // database (it is released after the close below, finalizers running in reverse).
    const directory = options.dataDir === undefined ? undefined : directoryOnDisk(options.dataDir)
    if (directory !== undefined) yield* acquireDataDirLock(directory)
    if (directory !== undefined && !existsSync(join(directory, "PG_VERSION"))) yield* initializeInChild(options.dataDir as string)
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => PGlite.create(startOptions(options.dataDir)),
        catch: (cause) => new SqlError({ cause, message: "PGlite: failed to start" })
      }),
      (db) => Effect.promise(() => db.close())
    )
    const permit = yield* Effect.makeSemaphore(1)

    // Uninterruptible: an interrupted caller must not release the permit while PGlite still runs its statement.
    const run = <A>(f: () => Promise<A>) => Effect.uninterruptible(Effect.tryPromise({ try: () => afterTurn(f), catch: toSqlError }))

    const lastRows = (results: ReadonlyArray<Results>) => results[results.length - 1]?.rows ?? []

    // Statements without parameters (schema changes among them) are not kept.
    const statements = preparedStatements(db)
    const query = async <A>(sql: string, params: ReadonlyArray<unknown>, options?: QueryOptions) => {
      if (params.length > 0) return await statements.query<A>(sql, params, options)
      await statements.afterUnprepared(sql)
      return await db.query<A>(sql, [], options)
    }
    const exec = async (sql: string) => {
      await statements.afterUnprepared(sql)
      return await db.exec(sql)
    }

    const connection: Connection = {
      execute: (sql, params, transformRows: TransformRows) =>
        Effect.map(
          run(() => query<object>(sql, params)),
          (result) => transformRows === undefined ? result.rows : transformRows(result.rows)
        ),
      executeRaw: (sql, params) => run(() => query(sql, params)),
      executeValues: (sql, params) =>
        Effect.map(
          run(() => query<Array<unknown>>(sql, params, { rowMode: "array" })),
          (result) => result.rows
        ),
      // Without parameters the simple protocol runs several statements at once (migrations, BEGIN).
      executeUnprepared: (sql, params, transformRows: TransformRows) =>
        Effect.map(
          params.length === 0
            ? Effect.map(run(() => exec(sql)), lastRows)
            : Effect.map(run(() => query<object>(sql, params)), (result) => result.rows),
          (rows) => transformRows === undefined ? rows : transformRows(rows)
        ),
      executeStream: (sql, params, transformRows: TransformRows) =>
        Stream.fromIterableEffect(
          Effect.map(run(() => query<object>(sql, params)), (result) =>
            transformRows === undefined ? result.rows : transformRows(result.rows))
        )
    }

    const withPermit = Effect.as(
      Effect.acquireRelease(permit.take(1), () =>
        permit.release(1)),
      connection
    )

    return yield* SqlClient.make({
      acquirer: withPermit,
      transactionAcquirer: withPermit,
      compiler: PgClient.makeCompiler(),
      spanAttributes: [["db.system.name", "postgresql"], ["db.namespace", "pglite"]]
    })
  })

/** A SqlClient over PGlite, closed when the layer's scope closes. */
export const PgliteClient = (options: PgliteOptions = {}): Layer.Layer<SqlClient.SqlClient> =>
  Layer.scoped(SqlClient.SqlClient, Effect.orDie(makePgliteClient(options))).pipe(
    Layer.provide(Reactivity.layer)
  )
