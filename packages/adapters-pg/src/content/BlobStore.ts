import * as SqlClient from "@effect/sql/SqlClient"
import { BlobStore } from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { findOne } from "../shared/Rows.js"

/** node-postgres reads bytea as a Buffer, PGlite as a Uint8Array. */
const BlobRow = Schema.Struct({ bytes: Schema.Uint8ArrayFromSelf })

export const BlobStoreLive = Layer.effect(
  BlobStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = findOne(Schema.String, BlobRow, (key) => sql`SELECT bytes FROM blobs WHERE key = ${key}`)

    return BlobStore.of({
      // A key is the hash of its bytes: the copy kept already is the same.
      put: (key, bytes) =>
        sql`INSERT INTO blobs (key, bytes) VALUES (${key}, ${bytes}) ON CONFLICT (key) DO NOTHING`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      // A plain Uint8Array, not a Buffer, so that callers compare it with the bytes they put.
      get: (key) => Effect.map(find(key), Option.map((row) => new Uint8Array(row.bytes)))
    })
  })
)
