import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import { PGlite, type Results } from "@electric-sql/pglite"
import { Effect, Layer, Stream } from "effect"
import { acquireDataDirLock, directoryOnDisk } from "./DataDirLock.js"

export interface PgliteOptions {
  /** Where PGlite keeps its files; undefined keeps the database in memory. */
  readonly dataDir?: string | undefined
}

type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

const toSqlError = (cause: unknown) => new SqlError({ cause, message: "Failed to execute statement" })

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
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => PGlite.create(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
        catch: (cause) => new SqlError({ cause, message: "PGlite: failed to start" })
      }),
      (db) => Effect.promise(() => db.close())
    )
    const permit = yield* Effect.makeSemaphore(1)

    // Uninterruptible: an interrupted caller must not release the permit while PGlite still runs its statement.
    const run = <A>(f: () => Promise<A>) => Effect.uninterruptible(Effect.tryPromise({ try: f, catch: toSqlError }))

    const lastRows = (results: ReadonlyArray<Results>) => results[results.length - 1]?.rows ?? []

    const connection: Connection = {
      execute: (sql, params, transformRows: TransformRows) =>
        Effect.map(run(() => db.query<object>(sql, [...params])), (result) =>
          transformRows === undefined ? result.rows : transformRows(result.rows)),
      executeRaw: (sql, params) =>
        run(() => db.query(sql, [...params])),
      executeValues: (sql, params) =>
        Effect.map(
          run(() => db.query<Array<unknown>>(sql, [...params], { rowMode: "array" })),
          (result) => result.rows
        ),
      // Without parameters the simple protocol runs several statements at once (migrations, BEGIN).
      executeUnprepared: (sql, params, transformRows: TransformRows) =>
        Effect.map(
          params.length === 0
            ? Effect.map(run(() => db.exec(sql)), lastRows)
            : Effect.map(run(() => db.query<object>(sql, [...params])), (result) => result.rows),
          (rows) => transformRows === undefined ? rows : transformRows(rows)
        ),
      executeStream: (sql, params, transformRows: TransformRows) =>
        Stream.fromIterableEffect(
          Effect.map(run(() => db.query<object>(sql, [...params])), (result) =>
            transformRows === undefined ? result.rows : transformRows(result.rows))
        )
    }

    const withPermit = Effect.as(Effect.acquireRelease(permit.take(1), () => permit.release(1)), connection)

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
