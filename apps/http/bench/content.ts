/**
 * Space content at scale: a space of 5,000 pages in 5 levels, on each storage. Times reading the
 * page tree, reading one page, a one-page live change and merging a one-page change request, and
 * measures the storage that 100 one-page revisions add. Run with `pnpm bench:content`; set
 * OCTAVO_BENCH_DATABASE_URL to include a PostgreSQL server, BENCH_STORAGES (memory,pglite,pg) to run
 * some of them only.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { withSearchPath } from "@octavo/adapters-pg"
import { Effect, Layer, Logger, LogLevel } from "effect"
import type { StorageChoice } from "../src/Config.js"
import { makeHttpApp } from "../src/Server.js"
import { storageLayer } from "../src/Storage.js"
import { ADMIN, dirSize, ms, request, timed, withBenchSchema } from "./common.js"

const PAGES = 5000
const LEVELS = 5

const markdown = (i: number) =>
  `Page ${i} explains one thing.\n\n## Details\n\nSee [the guide](https://example.com/${i}) and more text ${"lorem ipsum ".repeat(20)}`

/** Builds the space: 5 levels, each page holding the next level's pages, 50 changes per batch. */
const buildSpace = async (base: string, spaceId: string) => {
  let parents: Array<string | null> = [null]
  let created = 0
  for (let level = 0; level < LEVELS && created < PAGES; level++) {
    const perParent = level === LEVELS - 1 ? Math.ceil((PAGES - created) / parents.length) : [5, 4, 5, 6][level] ?? 5
    const wanted = Math.min(PAGES - created, parents.length * perParent)
    const next: Array<string> = []
    for (let start = 0; start < wanted; start += 50) {
      const changes = Array.from({ length: Math.min(50, wanted - start) }, (_, k) => {
        const i = start + k
        return {
          operation: "insert_page",
          title: `L${level} page ${i}`,
          into: parents[i % parents.length],
          document: { markdown: markdown(created + i) }
        }
      })
      const revision = await request(base, "POST", `/v1/spaces/${spaceId}/content`, { changes })
      const walk = (pages: ReadonlyArray<{ id: string; title: string; pages: ReadonlyArray<unknown> }>): void => {
        for (const page of pages) {
          if (page.title.startsWith(`L${level} `) && !next.includes(page.id)) next.push(page.id)
          walk(page.pages as ReadonlyArray<{ id: string; title: string; pages: ReadonlyArray<unknown> }>)
        }
      }
      if (start + 50 >= wanted) walk(revision.pages)
    }
    created += wanted
    parents = next
  }
  return parents[0] as string
}

const runOn = (name: string, choice: StorageChoice, storageBytes: () => Promise<number>) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const address = server.address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    const base = `http://127.0.0.1:${address.port}`
    yield* Effect.promise(async () => {
      const org = await request(base, "POST", "/v1/orgs", { title: "Bench" })
      const space = await request(base, "POST", `/v1/orgs/${org.id}/spaces`, { title: "Big" })
      const started = performance.now()
      const leaf = await buildSpace(base, space.id)
      const built = performance.now() - started
      const tree = await timed(10, () => request(base, "GET", `/v1/spaces/${space.id}/content/pages`))
      const one = await timed(50, () => request(base, "GET", `/v1/spaces/${space.id}/content/page/${leaf}`))
      const before = await storageBytes()
      const change = await timed(100, (i) =>
        request(base, "POST", `/v1/spaces/${space.id}/content`, {
          changes: [{ operation: "update_page", page: leaf, document: { markdown: markdown(i) } }]
        }))
      const added = (await storageBytes()) - before
      const answer = await fetch(`${base}/v1/spaces/${space.id}/content`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        body: JSON.stringify({ changes: [{ operation: "update_page", page: leaf, document: { markdown: markdown(0) } }] })
      })
      const answerBytes = (await answer.arrayBuffer()).byteLength
      const merge = await timed(10, async (i) => {
        const cr = await request(base, "POST", `/v1/spaces/${space.id}/change-requests`, { subject: `Change ${i}` })
        await request(base, "POST", `/v1/spaces/${space.id}/change-requests/${cr.number}/content`, {
          changes: [{ operation: "update_page", page: leaf, title: `Leaf ${i}` }]
        })
        const t = performance.now()
        const result = await request(base, "POST", `/v1/spaces/${space.id}/change-requests/${cr.number}/merge`)
        if (result.result !== "merge")
          throw new Error("merge failed")
        return performance.now() - t
      })
      process.stdout.write(`\n${name} (${PAGES} pages in ${LEVELS} levels, built in ${(built / 1000).toFixed(1)} s)\n`)
      process.stdout.write(`  read the page tree                 ${ms(tree)}\n`)
      process.stdout.write(`  read one page                      ${ms(one)}\n`)
      process.stdout.write(`  apply a one-page change            ${ms(change)}  (answer: ${(answerBytes / 1e6).toFixed(1)} MB)\n`)
      process.stdout.write(`  create, edit and merge a one-page change request ${ms(merge)}\n`)
      process.stdout.write(
        `  storage added by 100 one-page revisions: ${before < 0 ? "n/a (memory)" : `${(added / 1024).toFixed(0)} KiB`}\n`
      )
    })
  }).pipe(
    Effect.provide(
      makeHttpApp(storageLayer(choice), { publicUrl: "http://bench", adminToken: ADMIN }).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0 }))
      )
    ),
    Effect.scoped
  )

const STORAGES = (process.env["BENCH_STORAGES"] || "memory,pglite,pg").split(",").map((s) => s.trim())

const program = Effect.gen(function*() {
  process.stdout.write(`Octavo content benchmark: Node ${process.version}, ${new Date().toISOString()}\n`)
  if (STORAGES.includes("memory")) yield* runOn("memory", { _tag: "memory" }, async () => -1)
  if (STORAGES.includes("pglite")) {
    const dataDir = mkdtempSync(join(tmpdir(), "octavo-bench-"))
    yield* runOn("embedded PostgreSQL (PGlite, on disk)", { _tag: "pglite", dataDir }, async () => dirSize(dataDir)).pipe(
      Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
    )
  }
  const url = process.env["OCTAVO_BENCH_DATABASE_URL"]
  if (url !== undefined && url !== "" && STORAGES.includes("pg")) {
    yield* withBenchSchema(url, (schema, size) => runOn("PostgreSQL server", { _tag: "postgres", url: withSearchPath(url, schema) }, size))
  }
})

Effect.runPromise(program.pipe(Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
