/**
 * Git Sync at scale: a repository of 1,000 pages (nested in 20 sections, with SUMMARY.md, front
 * matter, links and 50 assets) on a loopback smart-HTTP server, imported into a space and exported
 * back to a new branch. Reports seconds and the peak resident memory of this process (git's own
 * processes aside) on each storage. Run with `pnpm bench:gitsync`; set OCTAVO_BENCH_DATABASE_URL to
 * include a PostgreSQL server; BENCH_PAGES changes the size.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { commitFiles, type GitServer, startGitServer } from "@octavo/adapters-node/gitServer"
import { withSearchPath } from "@octavo/adapters-pg"
import {
  Actor,
  Content,
  GitSync,
  GitSyncQueue,
  Identity,
  Organizations,
  Spaces
} from "@octavo/domain"
import { Context, Effect, Logger, LogLevel } from "effect"
import type { StorageChoice } from "../src/Config.js"
import { ADMIN, withBenchSchema } from "./common.js"
import { gitRepository } from "./gitRepository.js"
import { gitSyncServices } from "./gitSyncServices.js"

const PAGES = Number(process.env["BENCH_PAGES"] ?? 1_000)
/** Runs `work` while sampling this process's resident memory: seconds taken and the peak seen. */
const measured = <A, E>(work: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    let peak = process.memoryUsage().rss
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
    const started = performance.now()
    const result = yield* Effect.ensuring(work, Effect.sync(() => clearInterval(timer)))
    return { result, seconds: (performance.now() - started) / 1000, peakMiB: Math.max(peak, process.memoryUsage().rss) / 1024 / 1024 }
  })

const runOn = (name: string, choice: StorageChoice, server: GitServer) =>
  Effect.gen(function*() {
    const services = yield* gitSyncServices(choice, "bench")
    const admin = yield* Context.get(services, Identity).bootstrapInstanceAdmin(ADMIN)
    const as = Effect.provideService(Actor, admin)
    const { organization } = yield* as(Context.get(services, Organizations).create({ title: "Git Sync bench" }))
    const { space } = yield* as(Context.get(services, Spaces).create(organization.id, { title: "Synced" }))
    const gitSync = Context.get(services, GitSync)
    const queue = Context.get(services, GitSyncQueue)
    const remote = { url: server.url("bench"), ref: "refs/heads/main" }
    const baseline = process.memoryUsage().rss / 1024 / 1024

    const imported = yield* measured(Effect.gen(function*() {
      yield* as(gitSync.importRepository(space.id, remote))
      yield* queue.settled(space.id)
      return yield* as(gitSync.info(space.id))
    }))
    if (imported.result.operation?.state !== "success") throw new Error(`import failed: ${imported.result.operation?.error}`)
    const content = yield* as(Context.get(services, Content).current(space.id))
    const exported = yield* measured(Effect.gen(function*() {
      yield* as(gitSync.exportRepository(space.id, { ...remote, ref: "refs/heads/exported", commitMessage: "Benchmark export" }))
      yield* queue.settled(space.id)
      return yield* as(gitSync.info(space.id))
    }))
    if (exported.result.operation?.state !== "success") throw new Error(`export failed: ${exported.result.operation?.error}`)
    const line = (what: string, m: { seconds: number; peakMiB: number }) =>
      `  ${what.padEnd(34)} ${m.seconds.toFixed(2).padStart(7)} s   peak RSS ${m.peakMiB.toFixed(0).padStart(5)} MiB\n`
    process.stdout.write(
      `\n${name}: ${content.content.pages.size} pages, ${content.content.files.size} files (RSS before: ${baseline.toFixed(0)} MiB)\n`
    )
    process.stdout.write(line("import (fetch, read, one revision)", imported))
    process.stdout.write(line("export (one commit, push)", exported))
  }).pipe(Effect.scoped)

const program = Effect.gen(function*() {
  process.stdout.write(`Octavo Git Sync benchmark: Node ${process.version}, ${new Date().toISOString()}\n`)
  const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
  server.create("bench")
  const files = gitRepository(PAGES)
  commitFiles(server, "bench", files, "Benchmark repository")
  process.stdout.write(`repository: ${files.size} files\n`)
  const dataDir = mkdtempSync(join(tmpdir(), "octavo-bench-"))
  yield* runOn("embedded PostgreSQL (PGlite, on disk)", { _tag: "pglite", dataDir }, server).pipe(
    Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
  )
  const url = process.env["OCTAVO_BENCH_DATABASE_URL"]
  if (url !== undefined && url !== "") {
    yield* withBenchSchema(url, (schema) => runOn("PostgreSQL server", { _tag: "postgres", url: withSearchPath(url, schema) }, server))
  }
}).pipe(Effect.scoped)

Effect.runPromise(program.pipe(Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
