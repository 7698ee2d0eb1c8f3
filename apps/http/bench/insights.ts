/**
 * Site insights at scale: N events of one site over the last 90 days (Zipf page popularity over
 * 500 pages, sessions of 1 to 20 page views, visitors with a plan and a beta claim, a few user agents
 * and languages), tracked through the built server's HTTP API in batches of 100 by 8 clients at
 * once; then four aggregate queries, 20 runs each; and the server's resident memory after each phase
 * with its peak (VmRSS and VmHWM from /proc, so Linux). Run with `pnpm bench:insights`.
 *
 * Environment: BENCH_EVENTS_SERVER (10,000,000) and BENCH_EVENTS_PGLITE (1,000,000), or BENCH_EVENTS
 * for both; BENCH_VISITORS (200,000, or N / 50 when that is fewer); BENCH_STORAGES (pg,pglite); the
 * server at OCTAVO_BENCH_DATABASE_URL or DATABASE_URL (postgres://postgres@127.0.0.1:5432/test), in a
 * schema of its own dropped afterwards; PGlite in a temporary directory removed afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { withSearchPath } from "@octavo/adapters-pg"
import { Effect } from "effect"
import {
  cpuMs,
  dirSize,
  type Memory,
  memoryOf,
  postgresCpuMs,
  request,
  startServer,
  stopServer,
  type Timing,
  timing,
  waitFor,
  withBenchSchema
} from "./common.js"

const DATABASE_URL = process.env["OCTAVO_BENCH_DATABASE_URL"] || process.env["DATABASE_URL"] ||
  "postgres://postgres@127.0.0.1:5432/test"
const eventsFor = (name: string, byDefault: number) => Number(process.env[name] || process.env["BENCH_EVENTS"] || byDefault)
const EVENTS_SERVER = eventsFor("BENCH_EVENTS_SERVER", 10_000_000)
const EVENTS_PGLITE = eventsFor("BENCH_EVENTS_PGLITE", 1_000_000)
const STORAGES = (process.env["BENCH_STORAGES"] || "pg,pglite").split(",").map((s) => s.trim())
const visitorsFor = (events: number) => Number(process.env["BENCH_VISITORS"] || Math.max(1, Math.min(200_000, Math.floor(events / 50))))
const PAGES = 500
const BATCH = 100
const CLIENTS = 8
const RUNS = 20
const DAY = 86_400_000

// ---- The events -------------------------------------------------------------------------------

/** A small seeded generator (mulberry32), so every run tracks the same events. */
const random = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** The cumulative weights of the pages' popularity: page k (from 1) is seen in proportion to 1 / k. */
const zipf = (() => {
  const weights = Array.from({ length: PAGES }, (_, k) => 1 / (k + 1))
  const total = weights.reduce((a, b) => a + b, 0)
  let sum = 0
  return weights.map((w) => (sum += w / total))
})()
const pageOf = (r: number): number => {
  let low = 0
  let high = PAGES - 1
  while (low < high) {
    const mid = (low + high) >> 1
    if ((zipf[mid] as number) < r) low = mid + 1
    else high = mid
  }
  return low
}
const sections = ["guides", "api", "reference", "integrations", "changelog"]
const pageUrl = (k: number) => `https://docs.example.com/${sections[k % sections.length]}/page-${k}`

const userAgents = [
  // desktop Chrome, Firefox, Safari, Edge; mobile Safari, Chrome
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
]
const languages = ["en", "en", "en", "fr", "de", "es", "ja", "pt"]
const referrers = [null, null, null, "https://www.google.com/", "https://github.com/", "https://news.ycombinator.com/"]

/** What stays the same across a visitor's sessions: its user agent, language and claims (40% have none). */
const visitorOf = (v: number) => {
  const r = random(v * 7919 + 1)
  const kind = r()
  const plan = kind < 0.4 ? undefined : kind < 0.8 ? "free" : kind < 0.96 ? "pro" : "enterprise"
  return {
    id: `visitor-${v}`,
    userAgent: userAgents[Math.floor(r() * userAgents.length)] as string,
    language: languages[Math.floor(r() * languages.length)] as string,
    claims: plan === undefined ? undefined : { plan, beta: r() < 0.15 }
  }
}

/**
 * The events in batches of 100: sessions one after the other, each of 1 to 20 page views 10 s to
 * 5 min apart, starting in the order of time over the last 90 days (ending an hour before now at the
 * latest), so that the events arrive roughly in the order a live site records them.
 * Each session's id is its own, so every event is unique on (session, type, timestamp, url).
 */
const batches = function*(count: number, visitors: number, now: number): Generator<Array<unknown>> {
  const r = random(42)
  const earliest = now - 90 * DAY + 60_000
  const latest = now - 3_600_000 - 20 * 300_000
  let made = 0
  let batch: Array<unknown> = []
  for (let s = 0; made < count; s++) {
    const visitor = visitorOf(Math.floor(r() * visitors))
    const views = Math.min(count - made, 1 + Math.floor(r() * 20))
    const referrer = referrers[Math.floor(r() * referrers.length)] ?? null
    // Sessions start in the order of time, as a live site's arrive: the share of events made so far, a minute of jitter.
    let at = earliest + Math.floor((made / count) * (latest - earliest)) + Math.floor(r() * 60_000)
    for (let i = 0; i < views; i++) {
      at += 10_000 + Math.floor(r() * 290_000)
      batch.push({
        type: "page_view",
        timestamp: new Date(at).toISOString(),
        session: {
          visitorId: visitor.id,
          sessionId: `session-${s}`,
          cookies: {},
          userAgent: visitor.userAgent,
          language: visitor.language,
          referrer: i === 0 ? referrer : null,
          ...(visitor.claims === undefined ? {} : { visitorAuthClaims: visitor.claims })
        },
        location: {
          url: pageUrl(pageOf(r())) + (i === 0 && r() < 0.05 ? "?utm_source=newsletter" : ""),
          siteSection: null,
          siteSpace: null,
          siteShareKey: null,
          space: null,
          revision: null,
          page: null
        }
      })
      made++
      if (batch.length === BATCH) {
        yield batch
        batch = []
      }
    }
  }
  if (batch.length > 0) yield batch
}

// ---- The server -------------------------------------------------------------------------------

const start = (env: Record<string, string>) => startServer(env)
const stop = stopServer

/** A call with a member's token; the parsed answer, or an error on any status but 2xx. */
const call = async (base: string, token: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`)
  return text === "" ? undefined : JSON.parse(text)
}

// ---- The run ----------------------------------------------------------------------------------

const queries = (now: number): ReadonlyArray<readonly [name: string, body: unknown]> => [
  ["page views per day, 30 days", {
    range: "last30Days",
    groupBy: [{ column: "datetime", interval: "day" }],
    where: [{ column: "eventType", values: ["page_view"] }]
  }],
  ["top 10 pages by visitors, 7 days", {
    range: "last7Days",
    groupBy: [{ column: "urlPath" }],
    select: [{ column: "urlPath" }, { column: "visitorsCount" }],
    order: { by: { column: "visitorsCount" }, direction: "desc" },
    limit: 10
  }],
  ["visitors by country, device, 90 days", {
    range: { from: new Date(now - 90 * DAY).toISOString(), to: new Date(now).toISOString() },
    groupBy: [{ column: "visitorGeoCountry" }, { column: "visitorDevice" }],
    select: [{ column: "visitorGeoCountry" }, { column: "visitorDevice" }, { column: "visitorsCount" }]
  }],
  ["per day, plan pro, 30 days", {
    range: "last30Days",
    groupBy: [{ column: "datetime", interval: "day" }],
    where: [{ column: "visitorClaim", claim: "plan", values: ["pro"] }]
  }]
]

interface Row {
  readonly name: string
  readonly events: number
  readonly visitors: number
  readonly seconds: number
  readonly perSecond: number
  readonly cpu: { readonly server: number; readonly postgres: number; readonly generator: number }
  readonly queries: ReadonlyArray<readonly [string, Timing, string]>
  readonly ingested: Memory
  readonly queried: Memory
  readonly stored: number
}

const measure = async (name: string, events: number, env: Record<string, string>, size: () => Promise<number>): Promise<Row> => {
  const visitors = visitorsFor(events)
  const { base, child } = start(env)
  try {
    process.stdout.write(`${name}: starting\n`)
    await waitFor(`${base}/healthz`, Date.now() + 120_000)
    const user = await request(base, "POST", "/v1/users", { displayName: "Bench Member", email: `member.${Date.now()}@bench.example` })
    const token = (await request(base, "POST", `/v1/users/${user.id}/tokens`, { label: "bench" })).token as string
    const org = await call(base, token, "POST", "/v1/orgs", { title: "Insights bench" })
    const site = await call(base, token, "POST", `/v1/orgs/${org.id}/sites`, { title: "Docs" })
    const path = `/v1/orgs/${org.id}/sites/${site.id}/insights`

    const now = Date.now()
    process.stdout.write(`${name}: tracking ${events} events of ${visitors} visitors, ${CLIENTS} clients, batches of ${BATCH}\n`)
    const source = batches(events, visitors, now)
    let sent = 0
    let reported = 0
    const cpuBefore = { server: cpuMs(child.pid as number), postgres: postgresCpuMs(), generator: process.cpuUsage() }
    const started = performance.now()
    const client = async () => {
      for (let next = source.next(); !next.done; next = source.next()) {
        await call(base, token, "POST", `${path}/events`, { events: next.value })
        sent += next.value.length
        if (sent - reported >= events / 10) {
          reported = sent
          const seconds = (performance.now() - started) / 1000
          process.stdout.write(`  ${sent} events, ${seconds.toFixed(0)} s, ${(sent / seconds).toFixed(0)}/s\n`)
        }
      }
    }
    await Promise.all(Array.from({ length: CLIENTS }, client))
    const seconds = (performance.now() - started) / 1000
    const generatorCpu = process.cpuUsage(cpuBefore.generator)
    // Milliseconds of CPU per 1,000 events: where ingestion spends the machine's two cores.
    const perThousand = (ms: number) => ms / (events / 1000)
    const cpu = {
      server: perThousand(cpuMs(child.pid as number) - cpuBefore.server),
      postgres: perThousand(postgresCpuMs() - cpuBefore.postgres),
      generator: perThousand((generatorCpu.user + generatorCpu.system) / 1000)
    }
    process.stdout.write(
      `  CPU per 1,000 events: server ${cpu.server.toFixed(0)} ms, PostgreSQL ${cpu.postgres.toFixed(0)} ms, load generator ${
        cpu.generator.toFixed(0)
      } ms\n`
    )
    const ingested = memoryOf(child.pid as number)

    const all = await call(base, token, "POST", `${path}/events/aggregate`, {
      range: { from: new Date(now - 91 * DAY).toISOString(), to: new Date(now).toISOString() },
      select: [{ column: "eventsCount" }, { column: "visitorsCount" }]
    })
    const counted = all.columns[0].values[0] as number
    if (counted !== events) process.stdout.write(`  WARNING: tracked ${events} events, the server counts ${counted}\n`)

    const timings: Array<readonly [string, Timing, string]> = []
    for (const [query, body] of queries(Date.now())) {
      const samples: Array<number> = []
      let answer: { columns: Array<{ values: Array<unknown> }> } | undefined
      for (let i = 0; i < RUNS + 1; i++) {
        const t = performance.now()
        answer = await call(base, token, "POST", `${path}/events/aggregate`, body)
        // The first run is a warm-up.
        if (i > 0) samples.push(performance.now() - t)
      }
      const rows = answer?.columns[0]?.values.length ?? 0
      timings.push([query, timing(samples), `${rows} rows`])
      process.stdout.write(`  ${query}: ${timing(samples).median.toFixed(1)} ms median\n`)
    }
    const segments = performance.now()
    await call(base, token, "GET", `${path}/visitor-segments`)
    timings.push(["visitor segments (1 run)", { median: performance.now() - segments, p95: NaN }, ""])
    const queried = memoryOf(child.pid as number)
    return { name, events, visitors, seconds, perSecond: events / seconds, cpu, queries: timings, ingested, queried, stored: await size() }
  } finally {
    await stop(child)
  }
}

const mib = (n: number) => `${n.toFixed(0)} MiB`

const print = (rows: ReadonlyArray<Row>) => {
  const width = 38
  const cell = 26
  const line = (label: string, cells: ReadonlyArray<string>) =>
    process.stdout.write(`${label.padEnd(width)}${cells.map((c) => c.padStart(cell)).join("")}\n`)
  process.stdout.write("\n")
  line("", rows.map((r) => r.name))
  line("events", rows.map((r) => String(r.events)))
  line("visitors", rows.map((r) => String(r.visitors)))
  line("ingestion time", rows.map((r) => `${r.seconds.toFixed(1)} s`))
  line(`ingestion (${CLIENTS} clients, batches of ${BATCH})`, rows.map((r) => `${r.perSecond.toFixed(0)} events/s`))
  line("CPU per 1,000 events: server", rows.map((r) => `${r.cpu.server.toFixed(0)} ms`))
  line("  PostgreSQL processes", rows.map((r) => `${r.cpu.postgres.toFixed(0)} ms`))
  line("  load generator", rows.map((r) => `${r.cpu.generator.toFixed(0)} ms`))
  const names = rows[0]?.queries.map(([q]) => q) ?? []
  for (const [i, query] of names.entries()) {
    line(
      query,
      rows.map((r) => {
        const [, t] = r.queries[i] as readonly [string, Timing, string]
        return Number.isNaN(t.p95) ? `${t.median.toFixed(1)} ms` : `${t.median.toFixed(1)} / ${t.p95.toFixed(1)} ms`
      })
    )
  }
  line("  (query cells: median / p95 of 20)", [])
  line("RSS after ingestion", rows.map((r) => mib(r.ingested.rss)))
  line("RSS after queries", rows.map((r) => mib(r.queried.rss)))
  line("peak RSS (VmHWM)", rows.map((r) => mib(r.queried.peak)))
  line("stored size", rows.map((r) => mib(r.stored / 1024 / 1024)))
}

const program = Effect.gen(function*() {
  process.stdout.write(
    `Octavo insights benchmark: ${cpus().length} CPUs, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB, Node ${process.version}, ${
      new Date().toISOString()
    }\n`
  )
  const rows: Array<Row> = []
  if (STORAGES.includes("pg")) {
    rows.push(
      yield* withBenchSchema(
        DATABASE_URL,
        (schema, size) =>
          Effect.promise(() => measure("PostgreSQL server", EVENTS_SERVER, { DATABASE_URL: withSearchPath(DATABASE_URL, schema) }, size))
      )
    )
  }
  if (STORAGES.includes("pglite")) {
    const dataDir = mkdtempSync(join(tmpdir(), "octavo-bench-"))
    rows.push(
      yield* Effect.promise(() => measure("PGlite", EVENTS_PGLITE, { OCTAVO_DATA_DIR: dataDir }, () => Promise.resolve(dirSize(dataDir))))
        .pipe(Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))))
    )
  }
  print(rows)
})

Effect.runPromise(program).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
