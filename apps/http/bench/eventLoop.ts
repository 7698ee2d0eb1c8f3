/**
 * Whether heavy work stalls other requests (issue 38): the largest accepted input of each operation whose cost
 * grows with its input, run on the built server (a child process, embedded PGlite unless OCTAVO_STORAGE says) while
 * `/healthz` is asked back to back on one kept-alive connection. Prints each operation's time, and the longest a
 * health check waited (the goal: 100 ms). Run with `pnpm bench:eventloop`; BENCH_ONLY=<part of a name> runs the operations
 * whose names hold it, BENCH_SERVER_NODE_ARGS passes arguments to the server's node (`--cpu-prof`).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { ADMIN } from "./common.js"
import { clientOf, describeWatch, heavyOperations, startWorld, watch } from "./heavyWork.js"

const GOAL_MS = 100

const startServer = async (port: number, dataDir: string): Promise<ChildProcess> => {
  const nodeArgs = (process.env["BENCH_SERVER_NODE_ARGS"] ?? "").split(" ").filter((arg) => arg !== "")
  const child = spawn(process.execPath, [...nodeArgs, fileURLToPath(new URL("../src/main.js", import.meta.url))], {
    env: {
      ...process.env,
      PORT: String(port),
      OCTAVO_DATA_DIR: dataDir,
      OCTAVO_ADMIN_TOKEN: ADMIN,
      OCTAVO_IMPORT_ALLOW: "loopback",
      OCTAVO_RATE_LIMIT_PER_MINUTE: "0",
      // What is measured is the event loop, not the parse's time limit on a loaded machine.
      OCTAVO_PARSE_TIMEOUT_MS: "300000"
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  for (let tries = 0; tries < 600; tries++) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)
    if (up) return child
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  child.kill()
  throw new Error("the server did not start")
}

const main = async () => {
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const base = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), "octavo-eventloop-"))
  process.stdout.write(
    `Heavy work and the event loop: Node ${process.version}, storage ${process.env["OCTAVO_STORAGE"] ?? "pglite (default)"}\n`
  )
  const world = await startWorld()
  const server = await startServer(port, dataDir)
  try {
    const client = clientOf(base, ADMIN)
    const org = await client.call("POST", "/v1/orgs", { title: "Heavy work" })
    let worst = 0
    const only = process.env["BENCH_ONLY"]
    for (const operation of heavyOperations.filter((o) => only === undefined || o.name.includes(only))) {
      const run = await operation.prepare(client, world, org.id)
      const seen = await watch(base, run)
      worst = Math.max(worst, seen.worst)
      process.stdout.write(`${describeWatch(operation.name, seen)}\n`)
      const slowest = seen.slowest.map(([at, wait]) => `${wait.toFixed(0)} ms at +${(at / 1000).toFixed(2)} s`).join(", ")
      process.stdout.write(`    slowest checks: ${slowest}\n`)
      for (const failure of seen.failures.slice(0, 3)) process.stdout.write(`    failed: ${failure}\n`)
    }
    process.stdout.write(`worst wait of a health check: ${worst.toFixed(1)} ms (goal ${GOAL_MS} ms)\n`)
  } finally {
    const exited = new Promise((resolve) => server.once("exit", resolve))
    server.kill("SIGTERM")
    await exited
    await world.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack} ${String((error as { cause?: unknown }).cause ?? "")}\n`)
  process.exit(1)
})
