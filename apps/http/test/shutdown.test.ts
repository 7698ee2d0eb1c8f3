import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { expect, it } from "@effect/vitest"
import { freePort } from "./ports.js"

const main = fileURLToPath(new URL("../dist/src/main.js", import.meta.url))

const waitFor = async (url: string, deadline: number): Promise<void> => {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer in time`)
}

// The built server (the test command builds before it tests), as `pnpm start` runs it.
it("the server starts from the environment, logs JSON lines, and stops cleanly on SIGTERM", async () => {
  const port = await freePort()
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: String(port), OCTAVO_STORAGE: "memory", OCTAVO_PUBLIC_URL: "https://octavo.example" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk) => (output += String(chunk)))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  await waitFor(`http://127.0.0.1:${port}/healthz`, Date.now() + 15_000)
  const unauthorized = await fetch(`http://127.0.0.1:${port}/v1/user`)
  expect(unauthorized.status).toBe(401)
  child.kill("SIGTERM")
  expect(await exited).toBe(0)
  const lines = output.trim().split("\n").map((line) => JSON.parse(line))
  expect(lines[0]).toMatchObject({
    message: "Starting Octavo",
    annotations: { storage: "memory", port, publicUrl: "https://octavo.example" }
  })
  expect(lines.some((l) => l.annotations?.["http.status"] === 401)).toBe(true)
  // The stop is logged: the server drained before the storage closed.
  expect(lines.map((l) => l.message)).toEqual(
    expect.arrayContaining(["Stopping: no new connections, finishing the requests in flight", "Stopped serving; closing the storage"])
  )
}, 30_000)
