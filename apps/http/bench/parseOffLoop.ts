/**
 * Whether a big parse stalls other requests (issue 13): while a ~1.5 MB page write (then a ~10 MiB
 * OpenAPI YAML) is in flight, /healthz is asked every 20 ms; prints how long its answers took. The
 * built server runs in a child process on memory storage. Run with
 * `tsc -b && node apps/http/dist/bench/parseOffLoop.js`;
 * OCTAVO_PARSE_WORKERS=0 shows the figures without workers.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { bigPage, bigSpec } from "./bigInputs.js"
import { ADMIN, request } from "./common.js"

interface Figures {
  readonly write: number
  readonly answers: number
  readonly worst: number
  readonly median: number
}

/** Runs `write` and asks /healthz every 20 ms until it ends: the write's time and the health answers' times. */
const whileWriting = async (base: string, write: () => Promise<unknown>): Promise<Figures> => {
  const samples: Array<number> = []
  let done = false
  const probe = async () => {
    while (!done) {
      const t = performance.now()
      // A keep-alive connection the server closed meanwhile is retried once on a new one.
      await fetch(`${base}/healthz`).catch(() => fetch(`${base}/healthz`)).then((r) => r.text())
      samples.push(performance.now() - t)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  const started = performance.now()
  const probing = probe()
  await write()
  const took = performance.now() - started
  done = true
  await probing
  const sorted = [...samples].sort((a, b) => a - b)
  return { write: took, answers: samples.length, worst: sorted.at(-1) ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0 }
}

const show = (name: string, f: Figures) =>
  process.stdout.write(
    `  ${name.padEnd(30)} write ${f.write.toFixed(0).padStart(6)} ms   /healthz: ${String(f.answers).padStart(4)} answers, ` +
      `median ${f.median.toFixed(1).padStart(7)} ms, worst ${f.worst.toFixed(1).padStart(7)} ms\n`
  )

/** Starts the built server on memory storage in a child process, so that its stalls do not stall the timing. */
const startServer = async (port: number): Promise<ChildProcess> => {
  const child = spawn(process.execPath, [fileURLToPath(new URL("../src/main.js", import.meta.url))], {
    env: { ...process.env, PORT: String(port), OCTAVO_STORAGE: "memory", OCTAVO_ADMIN_TOKEN: ADMIN },
    stdio: ["ignore", "ignore", "inherit"]
  })
  for (let tries = 0; tries < 200; tries++) {
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
  process.stdout.write(
    `Parsing off the event loop: Node ${process.version}, OCTAVO_PARSE_WORKERS=${process.env["OCTAVO_PARSE_WORKERS"] ?? "(default)"}\n`
  )
  const server = await startServer(port)
  try {
    const org = await request(base, "POST", "/v1/orgs", { title: "Bench" })
    const space = await request(base, "POST", `/v1/orgs/${org.id}/spaces`, { title: "Big" })
    const page = bigPage(990_000)
    const spec = bigSpec(10 * 1024 * 1024 - 100_000)
    // Warm up: the first requests load modules and start the workers.
    await request(base, "POST", `/v1/spaces/${space.id}/content`, {
      changes: [{ operation: "insert_page", title: "Warm", document: { markdown: bigPage(100_000, "Warm") } }]
    })
    show(
      `page write (${(Buffer.byteLength(page) / 1e6).toFixed(2)} MB)`,
      await whileWriting(base, () =>
        request(base, "POST", `/v1/spaces/${space.id}/content`, {
          changes: [{ operation: "insert_page", title: "Big", document: { markdown: page } }]
        }))
    )
    show(
      `OpenAPI YAML (${(Buffer.byteLength(spec) / 1048576).toFixed(2)} MiB)`,
      await whileWriting(base, () => request(base, "PUT", `/v1/orgs/${org.id}/openapi/big`, { source: { text: spec } }))
    )
  } finally {
    server.kill("SIGTERM")
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)} ${String((error as { cause?: unknown }).cause ?? "")}\n`)
  process.exit(1)
})
