/** What the benchmark scripts share: HTTP calls with the admin token, timing, sizes, a schema of their own on a server. */
import { type ChildProcess, spawn } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as SqlClient from "@effect/sql/SqlClient"
import { PgServerClient } from "@octavo/adapters-pg"
import { Effect } from "effect"

export const ADMIN = "bench-admin-token"

export const request = async (base: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`)
  return text === "" ? undefined : JSON.parse(text)
}

export interface Timing {
  readonly median: number
  readonly p95: number
}

export const timing = (samples: ReadonlyArray<number>): Timing => {
  const sorted = [...samples].sort((a, b) => a - b)
  return { median: sorted[Math.floor(sorted.length / 2)] ?? 0, p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0 }
}

/** Runs `one` `count` times in a row: the median and 95th percentile of the durations. */
export const timed = async (count: number, one: (i: number) => Promise<unknown>): Promise<Timing> => {
  const samples: Array<number> = []
  for (let i = 0; i < count; i++) {
    const t = performance.now()
    await one(i)
    samples.push(performance.now() - t)
  }
  return timing(samples)
}

export const ms = (f: Timing) => `median ${f.median.toFixed(1).padStart(7)} ms   p95 ${f.p95.toFixed(1).padStart(7)} ms`

/** The size of a PGlite data directory's tables and indexes (the write-ahead log left out). */
export const dirSize = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name)
    if (entry.name === "pg_wal") return sum
    return sum + (entry.isDirectory() ? dirSize(path) : statSync(path).size)
  }, 0)

/**
 * Runs `use` with a fresh schema on the PostgreSQL server at `url`, dropped afterwards (kept, and
 * named on stderr, with BENCH_KEEP_SCHEMA=true, to look into); `size` measures its tables.
 */
export const withBenchSchema = <A, E, R>(url: string, use: (schema: string, size: () => Promise<number>) => Effect.Effect<A, E, R>) => {
  const schema = `bench_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`
  const onServer = <B>(f: (sql: SqlClient.SqlClient) => Effect.Effect<B, unknown>) =>
    Effect.flatMap(SqlClient.SqlClient, f).pipe(Effect.provide(PgServerClient(url)), Effect.orDie)
  const size = () =>
    Effect.runPromise(
      onServer((sql) =>
        sql<{ readonly bytes: string }>`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ${schema} AND c.relkind = 'r'`
      ).pipe(
        Effect.map((rows) => Number(rows[0]?.bytes ?? 0))
      )
    )
  const keep = process.env["BENCH_KEEP_SCHEMA"] === "true"
  return Effect.zipRight(onServer((sql) => sql.unsafe(`CREATE SCHEMA ${schema}`)), use(schema, size)).pipe(
    Effect.ensuring(
      keep
        ? Effect.asVoid(Effect.sync(() => process.stderr.write(`kept schema ${schema}\n`)))
        : Effect.asVoid(onServer((sql) => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
    )
  )
}

/** A process's resident size now and at its peak, in MiB. */
export interface Memory {
  readonly rss: number
  readonly peak: number
}

/** VmRSS and VmHWM of a process from /proc (Linux), in MiB. */
export const memoryOf = (pid: number): Memory => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN)
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 }
}

/** User and system CPU time of a process so far, in milliseconds (clock ticks of 10 ms; Linux). */
export const cpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/**
 * The CPU time of every PostgreSQL process of this machine so far (the server's backends, its writer
 * and checkpointer), in milliseconds: what the database spent on a phase, read before and after it.
 */
export const postgresCpuMs = (): number => {
  let total = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") total += cpuMs(Number(entry))
    } catch {
      // the process ended meanwhile
    }
  }
  return total
}

/** Waits until `url` answers 2xx, or fails at `deadline`. */
export const waitFor = async (url: string, deadline: number): Promise<void> => {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok) return
    } catch {
      // not listening yet, or a request taken before the app was ready and never answered
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${url} did not answer in time`)
}

const serverMain = fileURLToPath(new URL("../src/main.js", import.meta.url))

/**
 * The Node flags the server's `start` script runs it with (apps/http/package.json), such as the size
 * of V8's young generation: every benchmark measures the server as it ships.
 */
const shippedNodeArgs: ReadonlyArray<string> = String(
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).scripts.start
).split(" ").filter((arg) => arg.startsWith("--"))

/**
 * The built server in a process of its own on a random port, with the admin token, rate limits and the
 * per-address connection cap off (the benchmarks measure serving, not refusals), and `env` over them.
 * The benchmark's own storage variables are not passed on. Node's flags: the `start` script's, then
 * any in BENCH_SERVER_NODE_ARGS (space-separated; `--cpu-prof --cpu-prof-dir=/tmp/prof` profiles the
 * server), then `nodeArgs`.
 */
export const startServer = (
  env: Record<string, string>,
  nodeArgs: ReadonlyArray<string> = []
): { readonly child: ChildProcess; readonly base: string } => {
  const port = 20000 + Math.floor(Math.random() * 20000)
  const { DATABASE_URL: _, OCTAVO_DATA_DIR: __, ...inherited } = process.env
  const extra = (process.env["BENCH_SERVER_NODE_ARGS"] ?? "").split(" ").filter((arg) => arg !== "")
  const child = spawn(process.execPath, [...shippedNodeArgs, ...extra, ...nodeArgs, serverMain], {
    env: {
      ...inherited,
      ...env,
      PORT: String(port),
      OCTAVO_ADMIN_TOKEN: ADMIN,
      OCTAVO_PUBLIC_URL: "http://bench",
      OCTAVO_MAX_CONNECTIONS_PER_ADDRESS: "0",
      OCTAVO_RATE_LIMIT_PER_MINUTE: "0",
      OCTAVO_RATE_LIMIT_ANONYMOUS_PER_MINUTE: "0",
      OCTAVO_RATE_LIMIT_ANONYMOUS_TRACKING_PER_MINUTE: "0"
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  return { child, base: `http://127.0.0.1:${port}` }
}

/** Stops a server started by startServer: SIGTERM, then SIGKILL after `graceMs`. */
export const stopServer = async (child: ChildProcess, graceMs = 5_000) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()))
  child.kill("SIGTERM")
  const killer = setTimeout(() => child.kill("SIGKILL"), graceMs)
  await exited
  clearTimeout(killer)
}
