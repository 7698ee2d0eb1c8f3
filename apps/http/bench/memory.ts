/**
 * Memory: the resident size of the built server on each storage, right after it answers /healthz
 * and again after a load phase of mixed requests (organizations, spaces, page writes, tree reads,
 * searches). The embedded default is measured twice: on a new data directory (the first start
 * creates the database) and reopened. Reads VmRSS and VmHWM (the peak) from /proc, so it runs on
 * Linux; figures vary by some tens of MiB from run to run with Node's garbage collection. Run with
 * `pnpm bench:memory`; BENCH_LOAD_SECONDS changes the load phase (30 s), and
 * OCTAVO_BENCH_DATABASE_URL includes a PostgreSQL server (a schema of its own, dropped afterwards).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { withSearchPath } from "@octavo/adapters-pg"
import { Effect } from "effect"
import { type Memory, memoryOf, request, startServer, stopServer, waitFor, withBenchSchema } from "./common.js"

const LOAD_SECONDS = Number(process.env["BENCH_LOAD_SECONDS"] ?? 30)
const CONCURRENCY = 4

const words = ["storage", "release", "install", "webhook", "billing", "search", "markdown", "revision", "export", "audit"]
const markdown = (i: number) =>
  `# Page ${i}\n\nThis page covers ${words[i % words.length]} and ${words[(i * 7) % words.length]}.\n\n` +
  `## Details\n\n${"Some words about the topic, with a [link](https://example.com/" + i + "). ".repeat(10)}\n\n` +
  "```ts\nconst x = 1\n```\n\n- one\n- two\n- three\n"

/** Mixed requests until the deadline, by a few clients at once; returns how many were made. */
const load = async (base: string, seconds: number): Promise<number> => {
  const deadline = Date.now() + seconds * 1000
  let count = 0
  const client = async (n: number) => {
    const org = await request(base, "POST", "/v1/orgs", { title: `Load ${n}` })
    let space = await request(base, "POST", `/v1/orgs/${org.id}/spaces`, { title: `Space ${n}` })
    count += 2
    for (let i = 0; Date.now() < deadline; i++) {
      if (i % 50 === 49) {
        space = await request(base, "POST", `/v1/orgs/${org.id}/spaces`, { title: `Space ${n}.${i}` })
      } else if (i % 5 === 0 || i % 5 === 1) {
        await request(base, "POST", `/v1/spaces/${space.id}/content`, {
          changes: [{ operation: "insert_page", title: `Page ${i}`, document: { markdown: markdown(i) } }]
        })
      } else if (i % 5 === 2) {
        await request(base, "GET", `/v1/spaces/${space.id}/content/pages`)
      } else if (i % 5 === 3) {
        await request(base, "GET", `/v1/spaces/${space.id}/search?query=${words[i % words.length]}`)
      } else {
        await request(base, "GET", `/v1/orgs/${org.id}/search?query=${words[(i * 3) % words.length]}`)
      }
      count++
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, n) => client(n)))
  return count
}

interface Row {
  readonly name: string
  readonly start: Memory
  readonly loaded: Memory
  readonly requests: number
}

/** Starts the built server with `env`, measures it at start and after the load, and stops it. */
const measure = async (name: string, env: Record<string, string>): Promise<Row> => {
  const { base, child } = startServer(env)
  process.stdout.write(`  ${name}: starting\n`)
  try {
    await waitFor(`${base}/healthz`, Date.now() + 60_000)
    const start = memoryOf(child.pid as number)
    process.stdout.write(`  ${name}: answering, loading for ${LOAD_SECONDS} s\n`)
    const requests = await load(base, LOAD_SECONDS)
    const loaded = memoryOf(child.pid as number)
    return { name, start, loaded, requests }
  } finally {
    // A server holding keep-alive connections may take its whole grace period to stop; the figures are taken.
    await stopServer(child, 3_000)
  }
}

const mib = (n: number) => `${n.toFixed(0).padStart(5)} MiB`

const program = Effect.gen(function*() {
  process.stdout.write(`Octavo memory benchmark: Node ${process.version}, ${new Date().toISOString()}, load ${LOAD_SECONDS} s\n`)
  const rows: Array<Row | ReadonlyArray<Row>> = []
  rows.push(yield* Effect.promise(() => measure("memory", { OCTAVO_STORAGE: "memory" })))
  const dataDir = mkdtempSync(join(tmpdir(), "octavo-bench-"))
  // A new data directory (the first start creates the database), then the same directory again, as on any later start.
  rows.push(
    yield* Effect.promise(async () => [
      await measure("PGlite, new data directory", { OCTAVO_DATA_DIR: dataDir }),
      await measure("PGlite, reopened", { OCTAVO_DATA_DIR: dataDir })
    ]).pipe(
      Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
    )
  )
  const url = process.env["OCTAVO_BENCH_DATABASE_URL"]
  if (url !== undefined && url !== "") {
    rows.push(
      yield* withBenchSchema(
        url,
        (schema) => Effect.promise(() => measure("PostgreSQL server", { DATABASE_URL: withSearchPath(url, schema) }))
      )
    )
  }
  process.stdout.write(
    `\n${"storage".padEnd(30)} ${"RSS at start".padStart(12)} ${"RSS loaded".padStart(12)} ${"peak".padStart(12)} requests\n`
  )
  for (const row of rows.flat()) {
    process.stdout.write(
      `${row.name.padEnd(30)} ${mib(row.start.rss).padStart(12)} ${mib(row.loaded.rss).padStart(12)} ${mib(row.loaded.peak).padStart(12)} ${
        String(row.requests).padStart(8)
      }\n`
    )
  }
})

Effect.runPromise(program).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
