/**
 * Octavo side by side with a hand-written peer (issue 19). Starts the built server on the PostgreSQL server
 * (`OCTAVO_BENCH_DATABASE_URL`, by default the local `test` database, in a schema of its own) and, when
 * `BENCH_EMBEDDED` is not `0`, on a new embedded data directory; seeds one organization with a collection of 100
 * spaces through the API; copies those spaces into the peer's own tables (bench/peerServer.ts: Fastify and `pg`,
 * token lookup by SHA-256, then the rows, no membership check); then runs autocannon against each in turn, A B A B,
 * for `BENCH_ROUNDS` rounds (3) of `BENCH_SECONDS` (10) at `BENCH_CONNECTIONS` (32). Two floors (bench/floorServer.ts)
 * answer the same requests on Octavo's HTTP stack with its wire schemas but no rules and no log: the framework floor
 * from the same spaces held in memory, with no statement, and the peer's own statements on the peer's tables, sent
 * through `@effect/sql-pg`. Prints, per request and server, requests a second, p50 and p99 latency, the server
 * process's CPU per request (from /proc, so Linux), and the ratios.
 * Run with `pnpm bench:peer`; the load generator shares the machine's cores with the servers.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { withSearchPath } from "@octavo/adapters-pg"
import autocannon from "autocannon"
import { Effect } from "effect"
import pg from "pg"
import { ADMIN, cpuMs, request, startServer, stopServer, waitFor, withBenchSchema } from "./common.js"

const DATABASE = process.env["OCTAVO_BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 10)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 32)
const EMBEDDED = process.env["BENCH_EMBEDDED"] !== "0"
const SPACES = 100

/** The peer's tables: a token belongs to a user; spaces keep the fields a space answer shows. */
const PEER_SCHEMA = `
CREATE TABLE peer_users (id text PRIMARY KEY, display_name text NOT NULL);
CREATE TABLE peer_tokens (hash text PRIMARY KEY, user_id text NOT NULL REFERENCES peer_users (id), revoked_at timestamptz);
CREATE TABLE peer_spaces (
  id text PRIMARY KEY, organization_id text NOT NULL, parent_id text, title text NOT NULL, emoji text NOT NULL,
  visibility text NOT NULL, edit_mode text NOT NULL, default_level text NOT NULL, revision text NOT NULL,
  created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, position text NOT NULL
);
CREATE INDEX peer_spaces_parent ON peer_spaces (parent_id, position, id);
`

interface Target {
  readonly name: string
  readonly base: string
  readonly child: ChildProcess
}

interface Seeded {
  readonly spaceId: string
  readonly collectionId: string
  readonly spaces: ReadonlyArray<Record<string, unknown>>
}

/** An organization with a collection of 100 spaces, made through the API. */
const seed = async (base: string): Promise<Seeded> => {
  const org = await request(base, "POST", "/v1/orgs", { title: "Bench" })
  const collection = await request(base, "POST", `/v1/orgs/${org.id}/collections`, { title: "Handbooks" })
  for (let i = 0; i < SPACES; i++) {
    await request(base, "POST", `/v1/orgs/${org.id}/spaces`, { title: `Handbook ${i}`, parent: collection.id })
  }
  const listed = await request(base, "GET", `/v1/collections/${collection.id}/spaces?limit=100`)
  const spaces = listed.items as ReadonlyArray<Record<string, unknown>>
  return { spaceId: spaces[0]!["id"] as string, collectionId: collection.id, spaces }
}

/** The peer's tables, filled with the spaces Octavo answered, in its order. */
const seedPeer = async (url: string, seeded: Seeded) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(PEER_SCHEMA)
    await client.query("INSERT INTO peer_users (id, display_name) VALUES ('bench', 'Bench')")
    await client.query("INSERT INTO peer_tokens (hash, user_id) VALUES ($1, 'bench')", [createHash("sha256").update(ADMIN).digest("hex")])
    for (const [i, space] of seeded.spaces.entries()) {
      await client.query(
        `INSERT INTO peer_spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, default_level, revision,
          created_at, updated_at, position) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          space["id"],
          space["organization"],
          space["parent"],
          space["title"],
          space["emoji"],
          space["visibility"],
          space["editMode"],
          space["defaultLevel"],
          space["revision"],
          space["createdAt"],
          space["updatedAt"],
          String(i).padStart(4, "0")
        ]
      )
    }
  } finally {
    await client.end()
  }
}

const startPeer = (url: string): Target => {
  const port = 20000 + Math.floor(Math.random() * 20000)
  const child = spawn(process.execPath, [fileURLToPath(new URL("./peerServer.js", import.meta.url))], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"]
  })
  return { name: "peer", base: `http://127.0.0.1:${port}`, child }
}

/**
 * A floor on Octavo's stack (bench/floorServer.ts): with `database`, the peer's statements on the peer's tables;
 * without, the spaces Octavo answered (written to a file in `dir`) from memory.
 */
const startFloor = (dir: string, seeded: Seeded, database?: string): Target => {
  const port = 20000 + Math.floor(Math.random() * 20000)
  const spacesFile = join(dir, "floor-spaces.json")
  if (database === undefined) writeFileSync(spacesFile, JSON.stringify(seeded.spaces))
  const child = spawn(process.execPath, [fileURLToPath(new URL("./floorServer.js", import.meta.url))], {
    env: {
      ...process.env,
      ...(database === undefined
        ? { FLOOR_SPACES: spacesFile, FLOOR_TOKEN_SHA256: createHash("sha256").update(ADMIN).digest("hex") }
        : { FLOOR_DATABASE_URL: database }),
      PORT: String(port)
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  return { name: database === undefined ? FLOOR : PEER_ON_STACK, base: `http://127.0.0.1:${port}`, child }
}

const FLOOR = "framework floor"
const PEER_ON_STACK = "peer's statements on Octavo's stack"

/** Waits until an authenticated GET of `path` answers 200. */
const waitForAnswer = async (base: string, path: string) => {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    try {
      const answer = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } })
      if (answer.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${base}${path} did not answer in time`)
}

interface Run {
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
  readonly cpuPerRequest: number
}

const load = async (target: Target, path: string, seconds: number): Promise<Run> => {
  const pid = target.child.pid as number
  const cpuBefore = cpuMs(pid)
  const result = await autocannon({
    url: `${target.base}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${ADMIN}` }
  })
  const cpu = cpuMs(pid) - cpuBefore
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${target.name} ${path}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`)
  }
  const total = result.requests.total
  return { perSecond: total / result.duration, p50: result.latency.p50, p99: result.latency.p99, cpuPerRequest: cpu / total }
}

const mean = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0) / values.length

const summary = (runs: ReadonlyArray<Run>): Run => ({
  perSecond: mean(runs.map((r) => r.perSecond)),
  p50: mean(runs.map((r) => r.p50)),
  p99: mean(runs.map((r) => r.p99)),
  cpuPerRequest: mean(runs.map((r) => r.cpuPerRequest))
})

const program = Effect.gen(function*() {
  process.stdout.write(
    `Octavo side by side with a hand-written peer: Node ${process.version}, ${new Date().toISOString()}, ` +
      `${ROUNDS} rounds of ${SECONDS} s at ${CONNECTIONS} connections\n`
  )
  yield* withBenchSchema(DATABASE, (octavoSchema) =>
    withBenchSchema(DATABASE, (peerSchema) =>
      Effect.promise(async () => {
        const targets: Array<Target> = []
        const dataDir = mkdtempSync(join(tmpdir(), "octavo-peer-"))
        try {
          const octavo = startServer({ DATABASE_URL: withSearchPath(DATABASE, octavoSchema) })
          targets.push({ name: "Octavo, PostgreSQL server", ...octavo })
          await waitFor(`${octavo.base}/healthz`, Date.now() + 60_000)
          const seeded = await seed(octavo.base)
          await seedPeer(withSearchPath(DATABASE, peerSchema), seeded)
          const peer = startPeer(withSearchPath(DATABASE, peerSchema))
          targets.push(peer)
          await waitForAnswer(peer.base, `/v1/spaces/${seeded.spaceId}`)
          const paths = new Map<Target, { get: string; list: string }>()
          const pathsOf = (s: Seeded) => ({ get: `/v1/spaces/${s.spaceId}`, list: `/v1/collections/${s.collectionId}/spaces?limit=100` })
          paths.set(targets[0]!, pathsOf(seeded))
          paths.set(peer, pathsOf(seeded))
          for (const floor of [startFloor(dataDir, seeded), startFloor(dataDir, seeded, withSearchPath(DATABASE, peerSchema))]) {
            targets.push(floor)
            await waitForAnswer(floor.base, `/v1/spaces/${seeded.spaceId}`)
            paths.set(floor, pathsOf(seeded))
          }
          if (EMBEDDED) {
            const embedded = startServer({ OCTAVO_DATA_DIR: dataDir })
            const target = { name: "Octavo, embedded default", ...embedded }
            targets.push(target)
            await waitFor(`${embedded.base}/healthz`, Date.now() + 60_000)
            paths.set(target, pathsOf(await seed(embedded.base)))
          }
          process.stdout.write(`  seeded; warming up\n`)
          for (const target of targets) {
            await load(target, paths.get(target)!.get, 3)
            await load(target, paths.get(target)!.list, 3)
          }
          const runs = new Map<string, Array<Run>>()
          for (const kind of ["get", "list"] as const) {
            for (let round = 1; round <= ROUNDS; round++) {
              for (const target of targets) {
                const run = await load(target, paths.get(target)![kind], SECONDS)
                process.stdout.write(
                  `  ${kind} round ${round} ${target.name}: ${run.perSecond.toFixed(0)} req/s, p50 ${run.p50} ms, ` +
                    `${run.cpuPerRequest.toFixed(2)} ms CPU a request\n`
                )
                const key = `${kind}:${target.name}`
                runs.set(key, [...(runs.get(key) ?? []), run])
              }
            }
          }
          const line = (request: string, kind: "get" | "list") => {
            const of = (name: string) => runs.has(`${kind}:${name}`) ? summary(runs.get(`${kind}:${name}`)!) : undefined
            const octavo = of("Octavo, PostgreSQL server")!
            const peer = of("peer")!
            const floor = of(FLOOR)!
            const onStack = of(PEER_ON_STACK)!
            const embedded = of("Octavo, embedded default")
            const cell = (r: Run) =>
              `${r.perSecond.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${
                r.cpuPerRequest.toFixed(2)
              } ms CPU`
            process.stdout.write(`\n${request}\n`)
            process.stdout.write(`  Octavo, PostgreSQL server  ${cell(octavo)}\n`)
            process.stdout.write(`  peer                       ${cell(peer)}\n`)
            process.stdout.write(`  ratio Octavo / peer        ${(octavo.perSecond / peer.perSecond).toFixed(2)}\n`)
            process.stdout.write(`  framework floor            ${cell(floor)}\n`)
            process.stdout.write(`  ratio floor / peer         ${(floor.perSecond / peer.perSecond).toFixed(2)}\n`)
            process.stdout.write(`  peer's statements on Octavo's stack  ${cell(onStack)}\n`)
            process.stdout.write(`  ratio to the peer          ${(onStack.perSecond / peer.perSecond).toFixed(2)}\n`)
            if (embedded !== undefined) {
              process.stdout.write(`  Octavo, embedded default   ${cell(embedded)}\n`)
              process.stdout.write(`  ratio embedded / server    ${(embedded.perSecond / octavo.perSecond).toFixed(2)}\n`)
            }
          }
          line("GET /v1/spaces/{id}", "get")
          line("GET /v1/collections/{id}/spaces?limit=100", "list")
        } finally {
          for (const target of targets) await stopServer(target.child, 3_000)
          rmSync(dataDir, { recursive: true, force: true })
        }
      })))
})

Effect.runPromise(program).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
