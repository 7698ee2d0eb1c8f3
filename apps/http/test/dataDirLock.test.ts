import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it } from "@effect/vitest"
import { freePort } from "./ports.js"

const main = fileURLToPath(new URL("../dist/src/main.js", import.meta.url))

const waitFor = async (url: string, deadline: number): Promise<void> => {
  while (Date.now() < deadline) {
    try {
      // Bounded: a connection accepted while the server is still starting may not be answered.
      if ((await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer in time`)
}

interface Server {
  readonly child: ChildProcess
  readonly port: number
  readonly exited: Promise<number | null>
  readonly output: () => string
}

// The built server (the test command builds before it tests), as `pnpm start` runs it.
const start = async (dataDir: string): Promise<Server> => {
  const port = await freePort()
  // The embedded storage: neither a PostgreSQL server nor the in-memory store from the environment.
  const env = { ...process.env }
  delete env.DATABASE_URL
  delete env.OCTAVO_STORAGE
  const child = spawn(process.execPath, [main], {
    env: { ...env, PORT: String(port), OCTAVO_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk) => (output += String(chunk)))
  child.stderr?.on("data", (chunk) => (output += String(chunk)))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return { child, port, exited, output: () => output }
}

it(
  "a second server on the same data directory refuses to start, naming the directory and the holder's pid; a killed holder does not block a restart",
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "octavo-lock-"))
    const servers: Array<Server> = []
    try {
      const first = await start(dataDir)
      servers.push(first)
      await waitFor(`http://127.0.0.1:${first.port}/healthz`, Date.now() + 30_000)

      const second = await start(dataDir)
      servers.push(second)
      expect(await second.exited).not.toBe(0)
      expect(second.output()).toContain(`The data directory ${dataDir} is in use by process ${first.child.pid}`)
      // The refused server did not disturb the holder.
      expect((await fetch(`http://127.0.0.1:${first.port}/healthz`)).ok).toBe(true)

      // A holder killed outright leaves its lock behind: the next server takes it over.
      first.child.kill("SIGKILL")
      await first.exited
      const third = await start(dataDir)
      servers.push(third)
      await waitFor(`http://127.0.0.1:${third.port}/healthz`, Date.now() + 30_000)
      third.child.kill("SIGTERM")
      expect(await third.exited).toBe(0)
    } finally {
      for (const server of servers) server.child.kill("SIGKILL")
      rmSync(dataDir, { recursive: true, force: true })
    }
  },
  90_000
)
