/**
 * Latency of the organization endpoints on each storage, measured over HTTP on loopback.
 * Run with `pnpm bench`; set OCTAVO_BENCH_DATABASE_URL to include a PostgreSQL server.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as HttpServer from "@effect/platform/HttpServer"
import * as SqlClient from "@effect/sql/SqlClient"
import { PgServerClient, withSearchPath } from "@octavo/adapters-pg"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { makeHttpApp } from "../src/Server.js"
import { storageLayer } from "../src/Storage.js"
import type { StorageChoice } from "../src/Config.js"

const ADMIN = "bench-admin-token"

interface Figures {
  readonly median: number
  readonly p95: number
  readonly perSecond: number
}

const figures = (samples: Array<number>, wallMs: number): Figures => {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  return { median: at(0.5), p95: at(0.95), perSecond: (samples.length / wallMs) * 1000 }
}

const request = async (base: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return text === "" ? undefined : JSON.parse(text)
}

/** Runs `count` requests, `concurrency` at a time; answers per-request latency figures. */
const measure = async (count: number, concurrency: number, one: (i: number) => Promise<unknown>): Promise<Figures> => {
  const samples: Array<number> = []
  let next = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++
      const t = performance.now()
      await one(i)
      samples.push(performance.now() - t)
    }
  }))
  return figures(samples, performance.now() - started)
}

const scenario = async (base: string) => {
  const users = await Promise.all(
    Array.from(
      { length: 200 },
      (_, i) => request(base, "POST", "/v1/users", { displayName: `Member ${i}`, email: `member${i}@bench.example` })
    )
  )
  const org = await request(base, "POST", "/v1/orgs", { title: "Bench" })
  await request(base, "POST", `/v1/orgs/${org.id}/invites`, { emails: users.slice(0, 100).map((u) => u.email), role: "edit" })
  await request(base, "POST", `/v1/orgs/${org.id}/invites`, { emails: users.slice(100).map((u) => u.email), role: "edit" })
  const team = await request(base, "PUT", `/v1/orgs/${org.id}/teams`, { title: "Everyone", members: users.slice(0, 100).map((u) => u.id) })
  return [
    ["POST /v1/orgs", await measure(200, 1, (i) => request(base, "POST", "/v1/orgs", { title: `Org ${i}` }))],
    ["GET /v1/orgs/{id}", await measure(500, 1, () => request(base, "GET", `/v1/orgs/${org.id}`))],
    ["GET /v1/orgs/{id} ×8 concurrent", await measure(1000, 8, () => request(base, "GET", `/v1/orgs/${org.id}`))],
    ["GET …/members?limit=100 (201 members)", await measure(200, 1, () => request(base, "GET", `/v1/orgs/${org.id}/members?limit=100`))],
    [
      "GET …/teams/{id}/members?limit=100",
      await measure(200, 1, () => request(base, "GET", `/v1/orgs/${org.id}/teams/${team.id}/members?limit=100`))
    ],
    [
      "PATCH …/members/{id} (role)",
      await measure(
        200,
        1,
        (i) => request(base, "PATCH", `/v1/orgs/${org.id}/members/${users[i % 200].id}`, { role: i % 2 === 0 ? "review" : "edit" })
      )
    ]
  ] as const
}

const runOn = (name: string, choice: StorageChoice) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const address = server.address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    const base = `http://127.0.0.1:${address.port}`
    const rows = yield* Effect.promise(() => scenario(base))
    process.stdout.write(`\n${name}\n`)
    for (const [label, f] of rows) {
      process.stdout.write(
        `  ${label.padEnd(40)} median ${f.median.toFixed(2).padStart(7)} ms   p95 ${f.p95.toFixed(2).padStart(7)} ms   ${
          f.perSecond.toFixed(0).padStart(6)
        } req/s\n`
      )
    }
  }).pipe(
    Effect.provide(
      makeHttpApp(storageLayer(choice), { publicUrl: "http://bench", adminToken: ADMIN }).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0 }))
      )
    ),
    Effect.scoped
  )

const program = Effect.gen(function*() {
  process.stdout.write(`Octavo benchmark: Node ${process.version}, ${new Date().toISOString()}\n`)
  yield* runOn("memory", { _tag: "memory" })
  const dataDir = mkdtempSync(join(tmpdir(), "octavo-bench-"))
  yield* runOn("embedded PostgreSQL (PGlite, on disk)", { _tag: "pglite", dataDir }).pipe(
    Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
  )
  const url = process.env["OCTAVO_BENCH_DATABASE_URL"]
  if (url !== undefined && url !== "") {
    // A schema of its own, dropped afterwards, so the benchmark leaves the database as it found it.
    const schema = `bench_${Date.now()}`
    const admin = (statement: string) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(Effect.provide(PgServerClient(url)), Effect.orDie)
    yield* admin(`CREATE SCHEMA ${schema}`)
    yield* runOn("PostgreSQL server", { _tag: "postgres", url: withSearchPath(url, schema) }).pipe(
      Effect.ensuring(admin(`DROP SCHEMA ${schema} CASCADE`))
    )
  }
})

Effect.runPromise(program.pipe(Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
