/**
 * A soak test: the built server on a PostgreSQL server (DATABASE_URL, in a schema of its own, dropped afterwards), under
 * 200 keep-alive connections mixing reads and writes for SOAK_SECONDS (600 by default). Every 10 s it prints the
 * requests, the 5xx answers (there must be none), the latency's p50 and p99 and the server's resident memory; then a
 * summary. It exits non-zero on any 5xx or any connection that failed. Run with `pnpm soak`; it is not part of CI.
 */
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { Agent, request } from "node:http"
import { fileURLToPath } from "node:url"
import * as SqlClient from "@effect/sql/SqlClient"
import { PgServerClient, withSearchPath } from "@octavo/adapters-pg"
import { Effect } from "effect"
import { ADMIN } from "./common.js"

const main = fileURLToPath(new URL("../src/main.js", import.meta.url))
const DATABASE_URL = process.env["DATABASE_URL"] || "postgres://postgres@127.0.0.1:5432/test"
const SECONDS = Number(process.env["SOAK_SECONDS"] || 600)
const CONNECTIONS = Number(process.env["SOAK_CONNECTIONS"] || 200)
const REPORT_MS = 10_000

const onDatabase = (statement: string) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(Effect.provide(PgServerClient(DATABASE_URL)), Effect.orDie)
  )

/** The resident memory of a process, in MiB, from /proc (Linux). */
const rssOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))
  return Number(line?.match(/\d+/)?.[0] ?? 0) / 1024
}

interface Answer {
  readonly status: number
  /** Parsed JSON of any shape, as `JSON.parse` gives it. */
  readonly body: ReturnType<typeof JSON.parse>
}

/** Counts of the current 10 s window and of the whole run. */
class Tally {
  requests = 0
  serverErrors = 0
  clientErrors = 0
  failedConnections = 0
  latencies: Array<number> = []
  readonly firstErrors: Array<string> = []
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

const program = async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const port = 20000 + Math.floor(Math.random() * 20000)
  const recent = new Tally()
  const total = new Tally()

  /** One request over the pool of keep-alive connections; a failed connection counts as such and is thrown. */
  const call = (method: string, path: string, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body)
      const started = performance.now()
      const failed = (error: Error) => {
        for (const tally of [recent, total]) tally.failedConnections++
        if (total.firstErrors.length < 10) total.firstErrors.push(`${method} ${path}: ${error.message}`)
        reject(error)
      }
      const outgoing = request({
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: {
          authorization: `Bearer ${ADMIN}`,
          ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) })
        }
      }, (response) => {
        let text = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (text += chunk))
        response.on("error", failed)
        response.on("end", () => {
          const status = response.statusCode ?? 0
          for (const tally of [recent, total]) {
            tally.requests++
            tally.latencies.push(performance.now() - started)
            if (status >= 500) tally.serverErrors++
            else if (status >= 400) tally.clientErrors++
          }
          if (status >= 400 && total.firstErrors.length < 10) total.firstErrors.push(`${method} ${path}: ${status} ${text.slice(0, 200)}`)
          resolve({ status, body: text === "" ? undefined : JSON.parse(text) })
        })
      })
      outgoing.setTimeout(60_000, () => outgoing.destroy(new Error("no answer within 60 s")))
      outgoing.on("error", failed)
      outgoing.end(payload)
    })

  // What the load works on: grows as it writes.
  const organizations: Array<string> = []
  const spaces: Array<string> = []
  const changeRequests: Array<{ readonly space: string; readonly id: string }> = []
  const comments: Array<{ readonly space: string; readonly changeRequest: string; readonly id: string }> = []
  const oneOf = <A>(items: ReadonlyArray<A>): A => items[Math.floor(Math.random() * items.length)] as A
  const words = ["install", "deploy", "welcome", "guide", "release", "api", "token", "backup"]
  let serial = 0

  const operations: ReadonlyArray<readonly [weight: number, run: () => Promise<unknown>]> = [
    // Reads
    [10, () => call("GET", `/v1/orgs/${oneOf(organizations)}`)],
    [10, () => call("GET", `/v1/spaces/${oneOf(spaces)}`)],
    [8, () => call("GET", `/v1/orgs/${oneOf(organizations)}/spaces?limit=20`)],
    [10, () => call("GET", `/v1/spaces/${oneOf(spaces)}/content/pages`)],
    [6, () => call("GET", `/v1/orgs/${oneOf(organizations)}/search?query=${oneOf(words)}`)],
    [6, () => call("GET", `/v1/spaces/${oneOf(spaces)}/search?query=${oneOf(words)}`)],
    [5, () => call("GET", `/v1/spaces/${oneOf(spaces)}/change-requests`)],
    [5, async () => {
      const cr = oneOf(changeRequests)
      return call("GET", `/v1/spaces/${cr.space}/change-requests/${cr.id}/comments`)
    }],
    // Writes
    [1, async () => {
      const created = await call("POST", "/v1/orgs", { title: `Soak org ${serial++}` })
      if (created.status === 201) organizations.push(created.body.id)
    }],
    [3, async () => {
      const created = await call("POST", `/v1/orgs/${oneOf(organizations)}/spaces`, { title: `Soak space ${serial++}` })
      if (created.status === 201) spaces.push(created.body.id)
    }],
    [8, () =>
      call("POST", `/v1/spaces/${oneOf(spaces)}/content`, {
        changes: [{
          operation: "insert_page",
          title: `Page ${serial++}`,
          document: { markdown: `How to ${oneOf(words)} and ${oneOf(words)}.` }
        }]
      })],
    [3, async () => {
      const space = oneOf(spaces)
      const created = await call("POST", `/v1/spaces/${space}/change-requests`, { subject: `Change ${serial++}` })
      if (created.status === 201) changeRequests.push({ space, id: created.body.id })
    }],
    [3, async () => {
      const cr = oneOf(changeRequests)
      return call("POST", `/v1/spaces/${cr.space}/change-requests/${cr.id}/content`, {
        changes: [{ operation: "insert_page", title: `Draft ${serial++}`, document: { markdown: `A draft about ${oneOf(words)}.` } }]
      })
    }],
    [4, async () => {
      const cr = oneOf(changeRequests)
      const created = await call("POST", `/v1/spaces/${cr.space}/change-requests/${cr.id}/comments`, {
        body: { markdown: `Looks fine ${serial++}.` }
      })
      if (created.status === 201) comments.push({ space: cr.space, changeRequest: cr.id, id: created.body.id })
    }],
    [2, async () => {
      const comment = oneOf(comments)
      return call("POST", `/v1/spaces/${comment.space}/change-requests/${comment.changeRequest}/comments/${comment.id}/replies`, {
        body: { markdown: `Agreed ${serial++}.` }
      })
    }]
  ]
  const weights = operations.reduce((sum, [weight]) => sum + weight, 0)
  const pick = () => {
    let roll = Math.random() * weights
    for (const [weight, run] of operations) {
      roll -= weight
      if (roll < 0) return run
    }
    return operations[0]![1]
  }

  const schema = `soak_${Date.now()}`
  await onDatabase(`CREATE SCHEMA ${schema}`)
  const child = spawn(process.execPath, ["--enable-source-maps", main], {
    env: {
      ...process.env,
      DATABASE_URL: withSearchPath(DATABASE_URL, schema),
      PORT: String(port),
      OCTAVO_ADMIN_TOKEN: ADMIN,
      OCTAVO_PUBLIC_URL: "http://soak",
      // One client address opens every connection, far faster than any one client would.
      OCTAVO_MAX_CONNECTIONS_PER_ADDRESS: "0",
      OCTAVO_RATE_LIMIT_PER_MINUTE: "0",
      OCTAVO_RATE_LIMIT_ANONYMOUS_PER_MINUTE: "0"
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const pid = child.pid as number
  const rss = { start: 0, peak: 0, end: 0 }
  try {
    const deadline = Date.now() + 60_000
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline || child.exitCode !== null) throw new Error("the server did not start")
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    rss.start = rssOf(pid)

    // A little of everything to start from.
    for (let o = 0; o < 4; o++) {
      organizations.push((await call("POST", "/v1/orgs", { title: `Soak org ${serial++}` })).body.id)
      for (let s = 0; s < 5; s++) {
        const space = (await call("POST", `/v1/orgs/${organizations[o]}/spaces`, { title: `Soak space ${serial++}` })).body.id
        spaces.push(space)
        await call("POST", `/v1/spaces/${space}/content`, {
          changes: [{ operation: "insert_page", title: "Welcome", document: { markdown: "Welcome: install and deploy." } }]
        })
        const cr = (await call("POST", `/v1/spaces/${space}/change-requests`, { subject: "First" })).body.id
        changeRequests.push({ space, id: cr })
        const comment = (await call("POST", `/v1/spaces/${space}/change-requests/${cr}/comments`, { body: { markdown: "First." } })).body.id
        comments.push({ space, changeRequest: cr, id: comment })
      }
    }
    Object.assign(recent, new Tally())
    Object.assign(total, new Tally())

    process.stdout.write(
      `Octavo soak: Node ${process.version}, ${
        new Date().toISOString()
      }, ${CONNECTIONS} connections for ${SECONDS} s, server pid ${pid}\n` +
        `${"time".padStart(6)} ${"requests".padStart(9)} ${"req/s".padStart(7)} ${"5xx".padStart(5)} ${"4xx".padStart(5)} ${
          "failed".padStart(6)
        }` +
        ` ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"RSS MiB".padStart(8)}\n`
    )
    const started = Date.now()
    const end = started + SECONDS * 1000
    const report = setInterval(() => {
      const sorted = recent.latencies.sort((a, b) => a - b)
      const memory = rssOf(pid)
      rss.peak = Math.max(rss.peak, memory)
      process.stdout.write(
        `${`${Math.round((Date.now() - started) / 1000)}s`.padStart(6)} ${String(recent.requests).padStart(9)}` +
          ` ${(recent.requests / (REPORT_MS / 1000)).toFixed(0).padStart(7)} ${String(recent.serverErrors).padStart(5)}` +
          ` ${String(recent.clientErrors).padStart(5)} ${String(recent.failedConnections).padStart(6)}` +
          ` ${percentile(sorted, 0.5).toFixed(1).padStart(8)} ${percentile(sorted, 0.99).toFixed(1).padStart(8)} ${
            memory.toFixed(0).padStart(8)
          }\n`
      )
      Object.assign(recent, new Tally())
    }, REPORT_MS)
    const worker = async () => {
      while (Date.now() < end) await pick()().catch(() => undefined)
    }
    await Promise.all(Array.from({ length: CONNECTIONS }, worker))
    clearInterval(report)
    rss.end = rssOf(pid)
    rss.peak = Math.max(rss.peak, rss.end)

    const sorted = total.latencies.sort((a, b) => a - b)
    const seconds = (Date.now() - started) / 1000
    process.stdout.write(
      `\nSummary: ${total.requests} requests in ${seconds.toFixed(0)} s (${(total.requests / seconds).toFixed(0)}/s),` +
        ` ${total.serverErrors} 5xx, ${total.clientErrors} 4xx, ${total.failedConnections} failed connections;` +
        ` p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${
          (sorted.at(-1) ?? 0).toFixed(1)
        } ms;` +
        ` RSS ${rss.start.toFixed(0)} MiB at start, ${rss.peak.toFixed(0)} MiB at peak, ${rss.end.toFixed(0)} MiB at the end;` +
        ` ${organizations.length} organizations, ${spaces.length} spaces, ${changeRequests.length} change requests, ${comments.length} comments\n`
    )
    if (total.firstErrors.length > 0) process.stdout.write(`First errors:\n  ${total.firstErrors.join("\n  ")}\n`)
  } finally {
    agent.destroy()
    child.kill("SIGTERM")
    const code = await exited
    if (code !== 0) process.stdout.write(`The server exited with ${code} on SIGTERM\n`)
    await onDatabase(`DROP SCHEMA ${schema} CASCADE`)
  }
  return total.serverErrors === 0 && total.failedConnections === 0
}

program().then(
  (clean) => process.exit(clean ? 0 : 1),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
