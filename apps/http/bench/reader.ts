/**
 * The reader at scale: a published site over one space of 5,000 pages (100 sections of 49 pages), served
 * by the built server in a process of its own. Prints the time to the first byte of a page (median and
 * p95 of 300 pages read one after another, each a different page), and requests per second at 32
 * connections for 10 s: every request a different page (rendered each time), and one page asked again
 * with its ETag (answered 304). Run with `pnpm bench:reader`; with OCTAVO_BENCH_DATABASE_URL it runs on
 * that PostgreSQL server (a schema of its own, dropped afterwards), else on the embedded default.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { Agent, get } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { withSearchPath } from "@octavo/adapters-pg"
import { Effect } from "effect"
import { request, startServer, stopServer, timing, waitFor, withBenchSchema } from "./common.js"

const SECTIONS = Number(process.env["BENCH_SECTIONS"] ?? 100)
const PER_SECTION = 49
const CONNECTIONS = 32
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 10)

const markdown = (i: number) =>
  `Page ${i} explains one thing.\n\n## Details\n\nSee [the next page](page-${i + 1}.md) and ${"some words about it ".repeat(30)}\n\n` +
  "{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\n```ts title=\"example.ts\"\nconst x = 1\n```\n\n## More\n\n- one\n- two\n"

/** GET with a keep-alive agent; answers the status, the ETag and the time to the first byte of the answer. */
const fetchPage = (agent: Agent, url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; etag: string | undefined; ttfb: number }>((resolve, reject) => {
    const started = performance.now()
    const req = get(url, { agent, headers }, (response) => {
      const ttfb = performance.now() - started
      response.resume()
      response.on("end", () => resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, ttfb }))
    })
    req.on("error", reject)
  })

/** Requests per second for `seconds` with `connections` loops, each taking its next URL from `next`. */
const throughput = async (seconds: number, connections: number, next: (i: number) => [string, Record<string, string>]) => {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const deadline = performance.now() + seconds * 1000
  let done = 0
  let failed = 0
  let i = 0
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < deadline) {
      const [url, headers] = next(i++)
      const answer = await fetchPage(agent, url, headers)
      if (answer.status >= 400) failed++
      done++
    }
  }))
  agent.destroy()
  return { perSecond: done / seconds, failed }
}

const run = async (name: string, env: Record<string, string>) => {
  const profile = process.env["BENCH_PROFILE"]
  const { base, child } = startServer(env, profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`])
  try {
    await waitFor(`${base}/healthz`, Date.now() + 60_000)
    const org = await request(base, "POST", "/v1/orgs", { title: "Bench" })
    const space = await request(base, "POST", `/v1/orgs/${org.id}/spaces`, { title: "Big" })
    const built = performance.now()
    const paths: Array<string> = []
    for (let s = 0; s < SECTIONS; s++) {
      const section = await request(base, "POST", `/v1/spaces/${space.id}/content`, {
        changes: [{ operation: "insert_page", title: `Section ${s}`, slug: `section-${s}`, document: { markdown: markdown(s * 100) } }]
      })
      const parent = (section.pages as Array<{ id: string; slug: string }>).find((p) => p.slug === `section-${s}`)!.id
      paths.push(`section-${s}`)
      for (let start = 0; start < PER_SECTION; start += 50) {
        const changes = Array.from({ length: Math.min(50, PER_SECTION - start) }, (_, k) => {
          const n = start + k
          paths.push(`section-${s}/page-${n}`)
          return { operation: "insert_page", title: `Page ${n}`, slug: `page-${n}`, into: parent, document: { markdown: markdown(n) } }
        })
        await request(base, "POST", `/v1/spaces/${space.id}/content`, { changes })
      }
    }
    const site = await request(base, "POST", `/v1/orgs/${org.id}/sites`, { title: "Bench docs", spaces: [space.id] })
    await request(base, "POST", `/v1/orgs/${org.id}/sites/${site.id}/publish`)
    const siteBase = `${base}/sites/${org.id}/${site.id}`
    process.stdout.write(`\n${name}: ${paths.length} pages built in ${((performance.now() - built) / 1000).toFixed(0)} s\n`)

    // Warm up, then time the first byte of pages read one at a time.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    for (let i = 0; i < 20; i++) await fetchPage(agent, `${siteBase}/${paths[(i * 37) % paths.length]}`)
    const ttfbs: Array<number> = []
    for (let i = 0; i < 300; i++) {
      const answer = await fetchPage(agent, `${siteBase}/${paths[(i * 7919) % paths.length]}`)
      if (answer.status !== 200) throw new Error(`a page answered ${answer.status}`)
      ttfbs.push(answer.ttfb)
    }
    const first = timing(ttfbs)
    const one = `${siteBase}/${paths[paths.length - 1]}`
    const etag = (await fetchPage(agent, one)).etag ?? ""
    agent.destroy()
    const uncached = await throughput(SECONDS, CONNECTIONS, (i) => [`${siteBase}/${paths[(i * 7919) % paths.length]}`, {}])
    const cached = await throughput(SECONDS, CONNECTIONS, () => [one, { "if-none-match": etag }])
    process.stdout.write(`  time to first byte of a page      median ${first.median.toFixed(1)} ms   p95 ${first.p95.toFixed(1)} ms\n`)
    process.stdout.write(
      `  ${CONNECTIONS} connections, a different page each time   ${uncached.perSecond.toFixed(0)} req/s (${uncached.failed} failed)\n`
    )
    process.stdout.write(
      `  ${CONNECTIONS} connections, one page with its ETag (304)   ${cached.perSecond.toFixed(0)} req/s (${cached.failed} failed)\n`
    )
  } finally {
    await stopServer(child)
  }
}

const program = Effect.gen(function*() {
  process.stdout.write(`Octavo reader benchmark: Node ${process.version}, ${new Date().toISOString()}\n`)
  const url = process.env["OCTAVO_BENCH_DATABASE_URL"]
  if (url !== undefined && url !== "") {
    yield* withBenchSchema(url, (schema) => Effect.promise(() => run("PostgreSQL server", { DATABASE_URL: withSearchPath(url, schema) })))
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), "octavo-bench-"))
    yield* Effect.promise(() => run("embedded PostgreSQL (PGlite)", { OCTAVO_DATA_DIR: dataDir })).pipe(
      Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
    )
  }
})

Effect.runPromise(program).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
