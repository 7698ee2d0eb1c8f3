/**
 * Search at scale: 100,000 pages in 50 spaces, on the embedded default and on a PostgreSQL
 * server (set OCTAVO_BENCH_DATABASE_URL). Seeds through the domain (one revision per space),
 * then times queries over HTTP, and how long a merged change takes to be found. Run with
 * `pnpm bench:search`; BENCH_PAGES and BENCH_SPACES change the size.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { withSearchPath } from "@octavo/adapters-pg"
import {
  Actor,
  type AppliedChange,
  DomainServices,
  OutsideNotGiven,
  Identity,
  LiveEdits,
  Organizations,
  PageId,
  Spaces,
  type StoragePorts
} from "@octavo/domain"
import { Context, Effect, Layer, Logger, LogLevel } from "effect"
import type { StorageChoice } from "../src/Config.js"
import { makeHttpApp } from "../src/Server.js"
import { storageLayer } from "../src/Storage.js"
import { ADMIN, ms, request, timed, timing, withBenchSchema } from "./common.js"

const PAGES = Number(process.env["BENCH_PAGES"] ?? 100_000)
const SPACES = Number(process.env["BENCH_SPACES"] ?? 50)
const PER_SPACE = Math.ceil(PAGES / SPACES)
const SECTIONS_PER_PARENT = 40

// A made-up vocabulary whose words are used with Zipf-like frequencies: a few words are on most
// pages, most words on few, as in real documentation.
const syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "po", "da", "fi", "gu", "ha", "je"]
const vocabulary = Array.from({ length: 5000 }, (_, i) => {
  let word = ""
  for (let n = i + 15; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length]
  return word
})
let seed = 42
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}
const word = () => vocabulary[Math.floor(Math.pow(random(), 3) * vocabulary.length)] as string
const sentence = (n: number) => Array.from({ length: n }, word).join(" ")
const pageMarkdown = () => `${sentence(25)}.\n\n## ${sentence(2)}\n\n${sentence(40)}.\n\n## ${sentence(2)}\n\n${sentence(30)}.`

/** One space's pages: parents at the top, each holding up to 40 pages. */
const spaceChanges = (newId: () => string): ReadonlyArray<AppliedChange> => {
  const changes: Array<AppliedChange> = []
  let parent: PageId | null = null
  for (let i = 0; i < PER_SPACE; i++) {
    const top = i % (SECTIONS_PER_PARENT + 1) === 0
    const id = PageId.make(newId())
    changes.push({
      operation: "insert_page",
      id,
      title: `${sentence(3)} ${i}`,
      slug: `p${i}`,
      document: { markdown: pageMarkdown() },
      into: top ? null : parent
    })
    if (top) parent = id
  }
  return changes
}

const queries = [
  vocabulary[0] as string, // on most pages
  vocabulary[400] as string,
  vocabulary[4000] as string, // on few
  `${vocabulary[10]} ${vocabulary[2000]}`,
  `${vocabulary[5]} ${vocabulary[300]} ${vocabulary[3000]}`,
  (vocabulary[1200] as string).slice(0, 4) // a word being typed
]

const runOn = (name: string, choice: StorageChoice) =>
  Effect.gen(function*() {
    const storage = yield* Layer.build(storageLayer(choice))
    const shared: Layer.Layer<StoragePorts> = Layer.succeedContext(storage)
    const services = yield* Layer.build(DomainServices.pipe(Layer.provide(Layer.merge(shared, OutsideNotGiven))))
    const identity = Context.get(services, Identity)
    const admin = yield* identity.bootstrapInstanceAdmin(ADMIN)
    const as = Effect.provideService(Actor, admin)
    const organizations = Context.get(services, Organizations)
    const spaces = Context.get(services, Spaces)
    const liveEdits = Context.get(services, LiveEdits)
    const { organization } = yield* as(organizations.create({ title: "Search bench" }))
    const started = performance.now()
    const spaceIds: Array<string> = []
    let n = 0
    const newId = () => `bench${(n++).toString(36).padStart(10, "0")}`
    for (let s = 0; s < SPACES; s++) {
      const { space } = yield* as(spaces.create(organization.id, { title: `Space ${s}` }))
      yield* as(liveEdits.editLiveWith(space.id, () => Effect.succeed(spaceChanges(newId))))
      spaceIds.push(space.id)
    }
    const seeded = performance.now() - started

    const server = yield* Layer.build(
      makeHttpApp(shared, { publicUrl: "http://bench", adminToken: ADMIN }).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0 }))
      )
    )
    const address = Context.get(server, HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    const base = `http://127.0.0.1:${address.port}`
    yield* Effect.promise(async () => {
      const inSpace = await timed(queries.length * 20, (i) =>
        request(
          base,
          "GET",
          `/v1/spaces/${spaceIds[i % SPACES]}/search?query=${encodeURIComponent(queries[i % queries.length] as string)}`
        ))
      const perQuery: Array<string> = []
      const samples: Array<number> = []
      for (const query of queries) {
        const one = await timed(5, async () => {
          const t = performance.now()
          const found = await request(base, "GET", `/v1/orgs/${organization.id}/search?query=${encodeURIComponent(query)}`)
          samples.push(performance.now() - t)
          return found
        })
        const found = await request(base, "GET", `/v1/orgs/${organization.id}/search?query=${encodeURIComponent(query)}`)
        perQuery.push(`${JSON.stringify(query)} ${one.median.toFixed(0)} ms (${found.count} spaces)`)
      }
      const inOrganization = timing(samples)
      // A merged change: from the merge request to the first search that finds the new word.
      const freshness: Array<number> = []
      const mergeTimes: Array<number> = []
      for (let i = 0; i < 10; i++) {
        const spaceId = spaceIds[i % SPACES] as string
        const marker = `freshword${i}x`
        const cr = await request(base, "POST", `/v1/spaces/${spaceId}/change-requests`, { subject: `Change ${i}` })
        await request(base, "POST", `/v1/spaces/${spaceId}/change-requests/${cr.number}/content`, {
          changes: [{ operation: "insert_page", title: `New ${i}`, document: { markdown: `Mentions ${marker}.` } }]
        })
        const t = performance.now()
        await request(base, "POST", `/v1/spaces/${spaceId}/change-requests/${cr.number}/merge`)
        mergeTimes.push(performance.now() - t)
        for (;;) {
          const found = await request(base, "GET", `/v1/spaces/${spaceId}/search?query=${marker}%20`)
          if (found.count > 0) break
        }
        freshness.push(performance.now() - t)
      }
      process.stdout.write(
        `\n${name}: ${SPACES * PER_SPACE} pages in ${SPACES} spaces, seeded and indexed in ${(seeded / 1000).toFixed(1)} s\n`
      )
      process.stdout.write(`  search one space                   ${ms(inSpace)}\n`)
      process.stdout.write(`  search the whole organization       ${ms(inOrganization)}\n`)
      process.stdout.write(`    by query: ${perQuery.join(", ")}\n`)
      process.stdout.write(`  merge a change request             ${ms(timing(mergeTimes))}\n`)
      process.stdout.write(`  merge request sent → change found  ${ms(timing(freshness))}\n`)
    })
  }).pipe(Effect.scoped)

const program = Effect.gen(function*() {
  process.stdout.write(`Octavo search benchmark: Node ${process.version}, ${new Date().toISOString()}\n`)
  process.stdout.write(`queries: ${queries.map((q) => JSON.stringify(q)).join(", ")}\n`)
  const dataDir = mkdtempSync(join(tmpdir(), "octavo-bench-"))
  yield* runOn("embedded PostgreSQL (PGlite, on disk)", { _tag: "pglite", dataDir }).pipe(
    Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
  )
  const url = process.env["OCTAVO_BENCH_DATABASE_URL"]
  if (url !== undefined && url !== "") {
    yield* withBenchSchema(url, (schema) => runOn("PostgreSQL server", { _tag: "postgres", url: withSearchPath(url, schema) }))
  }
  if (process.env["BENCH_MEMORY"] === "1") yield* runOn("memory", { _tag: "memory" })
})

Effect.runPromise(program.pipe(Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
