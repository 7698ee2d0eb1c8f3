import * as SqlClient from "@effect/sql/SqlClient"
import { BlobStore } from "@octavo/domain"
import { Effect, Layer, Option } from "effect"

interface BlobRow {
  /** node-postgres reads bytea as a Buffer, PGlite as a Uint8Array. */
  readonly bytes: Uint8Array
}

export const BlobStoreLive = Layer.effect(
  BlobStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return BlobStore.of({
      // A key is the hash of its bytes: the copy kept already is the same.
      put: (key, bytes) =>
        sql`INSERT INTO blobs (key, bytes) VALUES (${key}, ${bytes}) ON CONFLICT (key) DO NOTHING`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      // A plain Uint8Array, not a Buffer, so that callers compare it with the bytes they put.
      get: (key) =>
        sql<BlobRow>`SELECT bytes FROM blobs WHERE key = ${key}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => new Uint8Array(row.bytes))),
          Effect.orDie
        )
    })
  })
)
