import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as SqlClient from "@effect/sql/SqlClient"
import { PgServerClient, withSearchPath } from "@octavo/adapters-pg"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { freePort } from "./ports.js"

// The built server (the test command builds before it tests), stopped and killed the way deployments do.
const main = fileURLToPath(new URL("../dist/src/main.js", import.meta.url))
const ADMIN = "faults-admin-token"
const GRACE_MS = 2_000
/** How long past the grace period a stopping server may take to close its storage and exit. */
const EXIT_MARGIN_MS = 5_000
/** No answer within this long is a hang. */
const HANG_MS = 20_000
const WORKERS = 16

const databaseUrl = process.env["OCTAVO_TEST_DATABASE_URL"] || undefined

/** Runs one statement on the PostgreSQL server, outside any test schema unless the url names one. */
const onDatabase = (url: string, statement: string) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, unknown>>(statement)).pipe(
      Effect.provide(PgServerClient(url)),
      Effect.orDie
    )
  )

/** Where a server keeps its data: a temporary PGlite directory, or a fresh schema of the PostgreSQL server. */
interface Storage {
  readonly env: Record<string, string>
  readonly query: (statement: string) => Promise<ReadonlyArray<Record<string, unknown>>>
  readonly dispose: () => Promise<void>
}

const pgliteStorage = (): Storage => {
  const dataDir = mkdtempSync(join(tmpdir(), "octavo-faults-"))
  return {
    env: { OCTAVO_DATA_DIR: dataDir },
    query: () => Promise.reject(new Error("PGlite is only read through its server")),
    dispose: async () => rmSync(dataDir, { recursive: true, force: true })
  }
}

const serverStorage = async (url: string): Promise<Storage> => {
  const schema = `faults_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  await onDatabase(url, `CREATE SCHEMA ${schema}`)
  const inSchema = withSearchPath(url, schema)
  return {
    env: { DATABASE_URL: inSchema },
    query: (statement) => onDatabase(inSchema, statement),
    dispose: async () => void (await onDatabase(url, `DROP SCHEMA ${schema} CASCADE`))
  }
}

const storages: ReadonlyArray<readonly [name: string, make: () => Promise<Storage>]> = [
  ["PGlite", async () => pgliteStorage()],
  ...(databaseUrl === undefined ? [] : [["the PostgreSQL server", () => serverStorage(databaseUrl)] as const])
]

interface Running {
  readonly child: ChildProcess
  readonly port: number
  /** Resolves with the exit code (null when killed by a signal), at the time of the exit. */
  readonly exited: Promise<{ readonly code: number | null; readonly at: number }>
  readonly output: () => string
}

const start = async (storage: Storage): Promise<Running> => {
  const port = await freePort()
  const inherited = { ...process.env }
  for (const name of ["DATABASE_URL", "OCTAVO_STORAGE", "OCTAVO_DATA_DIR"]) delete inherited[name]
  const child = spawn(process.execPath, [main], {
    env: {
      ...inherited,
      ...storage.env,
      PORT: String(port),
      OCTAVO_ADMIN_TOKEN: ADMIN,
      OCTAVO_SHUTDOWN_GRACE_MS: String(GRACE_MS),
      // Every request of these tests comes from one address, far faster than any client would.
      OCTAVO_MAX_CONNECTIONS_PER_ADDRESS: "0",
      OCTAVO_RATE_LIMIT_PER_MINUTE: "0",
      OCTAVO_RATE_LIMIT_ANONYMOUS_PER_MINUTE: "0"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk) => (output += String(chunk)))
  child.stderr?.on("data", (chunk) => (output += String(chunk)))
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on("exit", (code) => resolve({ code, at: Date.now() }))
  )
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    // The server listens only once it can answer: until then a connection is refused, never left waiting.
    const health = await send(port, undefined, "GET", "/healthz", undefined, 5_000)
    if (health.kind === "answered" && health.status === 200) return { child, port, exited, output: () => output }
    if (health.kind !== "closed" || health.code !== "ECONNREFUSED") {
      child.kill("SIGKILL")
      throw new Error(`a starting server answered ${JSON.stringify(health)}:\n${output}`)
    }
    if (child.exitCode !== null) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill("SIGKILL")
  throw new Error(`the server did not start:\n${output}`)
}

/** What became of a request: an answer, or a connection closed or refused without one (or no answer in time). */
type Outcome =
  | {
    readonly kind: "answered"
    readonly status: number
    /** Parsed JSON of any shape, as `JSON.parse` gives it. */
    readonly body: ReturnType<typeof JSON.parse>
    readonly closing: boolean
  }
  | { readonly kind: "closed"; readonly code: string }
  | { readonly kind: "hung" }

const send = (port: number, agent: Agent | undefined, method: string, path: string, body?: unknown, hangMs = HANG_MS) =>
  new Promise<Outcome>((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const outgoing = request({
      host: "127.0.0.1",
      port,
      method,
      path,
      agent: agent ?? false,
      headers: {
        authorization: `Bearer ${ADMIN}`,
        ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) })
      }
    }, (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (text += chunk))
      response.on("error", (error: Error & { code?: string }) => resolve({ kind: "closed", code: error.code ?? error.message }))
      response.on("end", () => {
        let parsed: unknown = text
        try {
          parsed = text === "" ? undefined : JSON.parse(text)
        } catch {
          // not JSON: kept as text
        }
        resolve({
          kind: "answered",
          status: response.statusCode ?? 0,
          body: parsed,
          closing: response.headers.connection === "close"
        })
      })
    })
    outgoing.setTimeout(hangMs, () => {
      resolve({ kind: "hung" })
      outgoing.destroy()
    })
    outgoing.on("error", (error: Error & { code?: string }) => resolve({ kind: "closed", code: error.code ?? error.message }))
    outgoing.end(payload)
  })

/** An answer that must be there: its status is checked, its body returned. */
const made = async (port: number, method: string, path: string, body: unknown, status: number) => {
  const outcome = await send(port, undefined, method, path, body)
  expect(outcome.kind === "answered" ? [method, path, outcome.status] : [method, path, outcome]).toEqual([method, path, status])
  return (outcome as Extract<Outcome, { kind: "answered" }>).body
}

/**
 * Writers creating organizations over keep-alive connections, each until the server stops answering it. `acked`
 * holds the organizations whose creation was answered 2xx: every one of them must survive.
 */
const burst = (port: number, label: string) => {
  const agent = new Agent({ keepAlive: true, maxSockets: WORKERS })
  const outcomes: Array<Outcome> = []
  const acked: Array<{ readonly id: string; readonly title: string }> = []
  const worker = async (w: number) => {
    for (let i = 0;; i++) {
      const title = `${label} ${w}.${i}`
      const outcome = await send(port, agent, "POST", "/v1/orgs", { title })
      outcomes.push(outcome)
      if (outcome.kind !== "answered") return
      if (outcome.status >= 200 && outcome.status < 300) acked.push({ id: outcome.body.id, title })
    }
  }
  const done = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w))).then(() => agent.destroy())
  /** Resolves once `count` writes are acknowledged: the burst is then well under way. */
  const acknowledged = async (count: number) => {
    while (acked.length < count) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return { outcomes, acked, done, acknowledged }
}

/** Every acknowledged organization reads back with its title. */
const expectAllPresent = async (port: number, acked: ReadonlyArray<{ readonly id: string; readonly title: string }>) => {
  const agent = new Agent({ keepAlive: true, maxSockets: WORKERS })
  const missing: Array<string> = []
  for (let from = 0; from < acked.length; from += WORKERS) {
    await Promise.all(
      acked.slice(from, from + WORKERS).map(async ({ id, title }) => {
        const read = await send(port, agent, "GET", `/v1/orgs/${id}`)
        if (read.kind !== "answered" || read.status !== 200 || read.body.title !== title) missing.push(title)
      })
    )
  }
  agent.destroy()
  expect(missing).toEqual([])
}

/** A request whose body never finishes: its connection stays busy until the grace period ends. */
const stalledRequest = (port: number) =>
  new Promise<{ readonly closed: Promise<number> }>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(
        `POST /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":`
      )
      resolve({ closed: new Promise<number>((closed) => socket.on("close", () => closed(Date.now()))) })
    })
    socket.on("error", () => undefined)
    socket.once("error", reject)
  })

/**
 * A write in flight when the stop comes. It asks `Expect: 100-continue`, so the server's "100 Continue" says it has
 * read the request's headers (a request the server has not read yet is not in flight: a stopping server may close its
 * connection as idle); then half its body is sent, the rest on `finish`. The server must still answer it, as its
 * connection's last answer. Resolves once the server has read the headers; `answer` holds the final answer, without
 * the interim one, once the connection closes.
 */
const finishingRequest = (port: number) =>
  new Promise<{ readonly finish: () => void; readonly answer: Promise<string> }>((resolve, reject) => {
    const body = JSON.stringify({ title: "Finished after the signal" })
    const half = Math.floor(body.length / 2)
    const interim = "HTTP/1.1 100 Continue\r\n\r\n"
    let answer = ""
    let continued = false
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(
        `POST /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN}\r\nExpect: 100-continue\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`
      )
    })
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => {
      answer += chunk
      if (continued || !answer.startsWith(interim)) return
      continued = true
      answer = answer.slice(interim.length)
      socket.write(body.slice(0, half))
      resolve({
        finish: () => socket.write(body.slice(half)),
        answer: new Promise<string>((done) => socket.on("close", () => done(answer)))
      })
    })
    socket.on("error", () => undefined)
    socket.once("error", reject)
    socket.once("close", () => continued || reject(new Error(`closed before the server read the headers: ${answer}`)))
  })

/** A keep-alive connection that answered once and is idle: the stopping server closes it at once. */
const idleConnection = async (port: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const answer = await send(port, agent, "GET", "/healthz")
  expect(answer.kind === "answered" && answer.status).toBe(200)
  // The agent takes the connection back once the answer is read.
  await new Promise((resolve) => setImmediate(resolve))
  const socket = Object.values(agent.freeSockets).flat()[0]
  if (socket === undefined) throw new Error("the keep-alive connection was not kept")
  return { closed: new Promise<number>((closed) => socket.on("close", () => closed(Date.now()))) }
}

/** Every request of a burst was answered 2xx or saw its connection closed or refused: never a 5xx, never a hang. */
const expectCleanOutcomes = (outcomes: ReadonlyArray<Outcome>) => {
  const unclean = outcomes.filter((o) => o.kind === "hung" || (o.kind === "answered" && o.status !== 201))
  expect(unclean).toEqual([])
  for (const outcome of outcomes) {
    if (outcome.kind === "closed") expect(["ECONNREFUSED", "ECONNRESET", "EPIPE", "socket hang up", "aborted"]).toContain(outcome.code)
  }
}

describe.each(storages)("faults on %s", (_name, makeStorage) => {
  it("SIGTERM during a burst of writes answers the requests in flight, closes the connections, then the storage", async () => {
    const storage = await makeStorage()
    try {
      const server = await start(storage)
      const writes = burst(server.port, "Before SIGTERM")
      const idle = await idleConnection(server.port)
      const stalled = await stalledRequest(server.port)
      const finishing = await finishingRequest(server.port)
      await writes.acknowledged(40)
      const stoppedAt = Date.now()
      server.child.kill("SIGTERM")
      // Once the server is stopping, the write in flight sends the rest of its body.
      while (!server.output().includes("Stopping")) await new Promise((resolve) => setTimeout(resolve, 5))
      finishing.finish()
      await writes.done
      const exit = await server.exited

      // Writes that a client sent while the server stopped were answered 2xx or saw their connection closed.
      expectCleanOutcomes(writes.outcomes)
      // The write in flight when the signal came was answered, as its connection's last answer.
      const finished = await finishing.answer
      expect(finished.split("\r\n")[0]).toBe("HTTP/1.1 201 Created")
      expect(finished.toLowerCase()).toContain("\r\nconnection: close\r\n")
      const finishedOrganization = JSON.parse(finished.slice(finished.indexOf("\r\n\r\n") + 4)) as { id: string; title: string }
      expect(exit.code).toBe(0)
      expect(exit.at - stoppedAt).toBeLessThan(GRACE_MS + EXIT_MARGIN_MS)
      // The idle connection closed at once; the stalled one was given the grace period, then closed.
      expect((await idle.closed) - stoppedAt).toBeLessThan(GRACE_MS / 2)
      expect((await stalled.closed) - stoppedAt).toBeGreaterThanOrEqual(GRACE_MS - 100)
      const lines = server.output().trim().split("\n").map((line) => JSON.parse(line))
      expect(lines.filter((l) => l.logLevel === "ERROR" || l.logLevel === "FATAL")).toEqual([])
      expect(lines.some((l) => String(l.message).startsWith("Stopping"))).toBe(true)

      const restarted = await start(storage)
      await expectAllPresent(restarted.port, [...writes.acked, finishedOrganization])
      restarted.child.kill("SIGTERM")
      expect((await restarted.exited).code).toBe(0)
    } finally {
      await storage.dispose()
    }
  }, 240_000)

  it("kill -9 during a burst of writes loses none of the acknowledged ones", async () => {
    const storage = await makeStorage()
    try {
      const acked: Array<{ readonly id: string; readonly title: string }> = []
      for (let round = 0; round < 2; round++) {
        const server = await start(storage)
        await expectAllPresent(server.port, acked)
        const writes = burst(server.port, `Round ${round}`)
        await writes.acknowledged(30)
        server.child.kill("SIGKILL")
        await writes.done
        expect((await server.exited).code).toBe(null)
        expect(writes.outcomes.filter((o) => o.kind === "hung" || (o.kind === "answered" && o.status !== 201))).toEqual([])
        acked.push(...writes.acked)
      }
      const last = await start(storage)
      await expectAllPresent(last.port, acked)
      last.child.kill("SIGTERM")
      expect((await last.exited).code).toBe(0)
    } finally {
      await storage.dispose()
    }
  }, 240_000)
})

if (databaseUrl !== undefined) {
  describe("two servers on one PostgreSQL database", () => {
    it("concurrent space moves, team edits and change requests lose no update and duplicate no order key or number", async () => {
      const storage = await serverStorage(databaseUrl)
      const servers: Array<Running> = []
      try {
        servers.push(await start(storage))
        servers.push(await start(storage))
        const [a, b] = servers as [Running, Running]
        const org = (await made(a.port, "POST", "/v1/orgs", { title: "Shared" }, 201)).id as string
        const collection = (await made(a.port, "POST", `/v1/orgs/${org}/collections`, { title: "Guides" }, 201)).id as string
        const spaces: Array<string> = []
        for (let i = 0; i < 6; i++) {
          spaces.push((await made(b.port, "POST", `/v1/orgs/${org}/spaces`, { title: `Space ${i}`, parent: collection }, 201)).id)
        }
        const users: Array<string> = []
        for (let i = 0; i < 12; i++) {
          users.push((await made(a.port, "POST", "/v1/users", { displayName: `User ${i}`, email: `user${i}.${org}@example.com` }, 201)).id)
        }
        const emails = users.map((_, i) => ({ email: `user${i}.${org}@example.com`, role: "read" }))
        await made(b.port, "POST", `/v1/orgs/${org}/invites`, { emails }, 200)
        const team = (await made(a.port, "PUT", `/v1/orgs/${org}/teams`, { title: "Writers" }, 201)).id as string

        // Each server gets its half of every kind of write, all at once.
        const agents = [new Agent({ keepAlive: true, maxSockets: 8 }), new Agent({ keepAlive: true, maxSockets: 8 })]
        const on = (i: number) => ({ port: servers[i % 2]!.port, agent: agents[i % 2]! })
        const pick = (i: number, salt: number) => spaces[(i * 7 + salt) % spaces.length]!
        const moves = Array.from({ length: 40 }, (_, i) => {
          const moved = pick(i, 0)
          const anchor = pick(i, 1 + (i % (spaces.length - 1)))
          const where = i % 2 === 0 ? "before" : "after"
          return send(on(i).port, on(i).agent, "POST", `/v1/spaces/${moved}/move`, {
            position: { [where]: { type: "space", space: anchor } }
          })
        })
        const teamEdits = users.map((user, i) =>
          send(on(i).port, on(i).agent, "PUT", `/v1/orgs/${org}/teams/${team}/members`, { add: [user] })
        )
        const changeRequests = Array.from(
          { length: 20 },
          (_, i) => send(on(i).port, on(i).agent, "POST", `/v1/spaces/${spaces[0]}/change-requests`, { subject: `Draft ${i}` })
        )
        const [moved, edited, created] = await Promise.all([Promise.all(moves), Promise.all(teamEdits), Promise.all(changeRequests)])
        for (const agent of agents) agent.destroy()
        const statuses = (outcomes: ReadonlyArray<Outcome>) => [...new Set(outcomes.map((o) => o.kind === "answered" ? o.status : o.kind))]
        expect(statuses(moved)).toEqual([200])
        expect(statuses(edited)).toEqual([204])
        expect(statuses(created)).toEqual([201])

        // Every member added by either server is there.
        const members = await made(b.port, "GET", `/v1/orgs/${org}/teams/${team}/members?limit=100`, undefined, 200)
        expect(members.items.map((m: { organization: { id: string } }) => m.organization.id).sort()).toEqual([...users].sort())
        // Each change request has its own number: 1 to 20.
        const numbers = created.map((o) => (o as Extract<Outcome, { kind: "answered" }>).body.number as number)
        expect([...numbers].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
        const listed = await made(a.port, "GET", `/v1/spaces/${spaces[0]}/change-requests?limit=100`, undefined, 200)
        expect(listed.items.length).toBe(20)
        // Both servers list the collection's spaces alike, each once, in the order of distinct positions.
        const order = async (port: number) =>
          (await made(port, "GET", `/v1/collections/${collection}/spaces?limit=100`, undefined, 200)).items.map((s: { id: string }) => s.id)
        const listedOrder = await order(a.port)
        expect(await order(b.port)).toEqual(listedOrder)
        expect([...listedOrder].sort()).toEqual([...spaces].sort())
        const rows = await storage.query(`SELECT id, position FROM spaces WHERE parent_id = '${collection}' ORDER BY position, id`)
        expect(new Set(rows.map((r) => r["position"])).size).toBe(spaces.length)
        expect(rows.map((r) => r["id"])).toEqual(listedOrder)
        // A move between two neighbours still finds room between them.
        const [first, second, last] = [listedOrder[0], listedOrder[1], listedOrder[listedOrder.length - 1]]
        await made(b.port, "POST", `/v1/spaces/${last}/move`, { position: { after: { type: "space", space: first } } }, 200)
        expect((await order(a.port)).slice(0, 3)).toEqual([first, last, second])
      } finally {
        for (const server of servers) {
          server.child.kill("SIGTERM")
          await server.exited
        }
        await storage.dispose()
      }
    }, 240_000)
  })
}
