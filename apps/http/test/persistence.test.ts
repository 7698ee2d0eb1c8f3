import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import { PgliteClient, PgServerClient, PgStorage, withSearchPath } from "@octavo/adapters-pg"
import type { StoragePorts } from "@octavo/domain"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as HttpClient from "@effect/platform/HttpClient"
import { storageLayer } from "../src/Storage.js"
import { ADMIN_TOKEN, call, PUBLIC_URL, testServer } from "./harness.js"

/** Creates an organization on one server, stops it, starts another on the same storage, reads it back. */
const survivesRestart = (storage: () => Layer.Layer<StoragePorts, unknown>) =>
  Effect.gen(function*() {
    const created = yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, body: { title: "Durable" } }).pipe(
      Effect.provide(testServer(storage()))
    )
    expect(created.status).toBe(201)
    const read = yield* call("GET", `/v1/orgs/${created.body.id}`, { token: ADMIN_TOKEN }).pipe(
      Effect.provide(testServer(storage()))
    )
    expect(read.status).toBe(200)
    expect(read.body.title).toBe("Durable")
  })

describe("persistence across restarts", () => {
  it.live("the embedded default keeps an organization created over HTTP", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "octavo-restart-"))
    return survivesRestart(() => PgStorage.pipe(Layer.provide(PgliteClient({ dataDir })))).pipe(
      Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
    )
  }, 60_000)

  it.live("the embedded default keeps file bytes on disk under its data directory", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "octavo-files-"))
    const storage = () => storageLayer({ _tag: "pglite", dataDir })
    return Effect.gen(function*() {
      const url = yield* Effect.gen(function*() {
        const org = yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, body: { title: "Files" } })
        const space = yield* call("POST", `/v1/orgs/${org.body.id}/spaces`, { token: ADMIN_TOKEN, body: { title: "S" } })
        const edit = yield* call("POST", `/v1/spaces/${space.body.id}/content`, {
          token: ADMIN_TOKEN,
          body: {
            changes: [{ operation: "insert_files", files: [{ name: "a.txt", contentType: "text/plain", base64: btoa("kept on disk") }] }]
          }
        })
        return edit.body.files[0].downloadURL as string
      }).pipe(Effect.provide(testServer(storage())))
      expect(readdirSync(join(dataDir, "blobs")).length).toBe(1)
      const text = yield* Effect.gen(function*() {
        const response = yield* (yield* HttpClient.HttpClient).get(url.replace(PUBLIC_URL, ""), {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` }
        })
        return yield* response.text
      }).pipe(Effect.scoped, Effect.provide(testServer(storage())))
      expect(text).toBe("kept on disk")
    }).pipe(Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))))
  }, 60_000)

  const url = process.env["OCTAVO_TEST_DATABASE_URL"]
  if (url !== undefined && url !== "") {
    it.live("the PostgreSQL server keeps an organization created over HTTP", () =>
      Effect.gen(function*() {
        // Both servers use one fresh schema, each with its own connection pool.
        const schema = `restart_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
        const admin = (statement: string) =>
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(Effect.provide(PgServerClient(url)), Effect.orDie)
        yield* Effect.acquireRelease(admin(`CREATE SCHEMA ${schema}`), () => admin(`DROP SCHEMA ${schema} CASCADE`))
        yield* survivesRestart(() => PgStorage.pipe(Layer.provide(PgServerClient(withSearchPath(url, schema)))))
      }).pipe(Effect.scoped), 60_000)
  }
})
