/**
 * The largest accepted input of each operation whose cost grows with its input (issue 38), run over HTTP while
 * `/healthz` is asked again and again on one kept-alive connection: how long the longest health check waited, and
 * whether any failed. Shared by the event-loop benchmark (eventLoop.ts, a built server in a child process) and the
 * watchdog test (test/eventLoop.test.ts, the server in the test's process).
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Worker } from "node:worker_threads"
import { commitFiles, type GitServer, startGitServer } from "@octavo/adapters-node/gitServer"
import { bigPage, bigSpec } from "./bigInputs.js"
import { gitRepository } from "./gitRepository.js"

/** How a heavy operation reaches the server: JSON calls that fail on an error status. */
export interface Client {
  readonly call: (method: string, path: string, body?: unknown) => Promise<ReturnType<typeof JSON.parse>>
}

export const clientOf = (base: string, token: string): Client => ({
  call: async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`)
    return text === "" ? undefined : JSON.parse(text)
  }
})

/** What the operations fetch from: a Git smart-HTTP server and a website, both on loopback. */
export interface World {
  readonly git: GitServer
  readonly website: string
  readonly close: () => Promise<void>
}

export const WEBSITE_PAGES = 100
export const GIT_PAGES = 2_000
export const MERGE_PAGES = 5_000

/** A documentation website of `WEBSITE_PAGES` pages of about 30 KB each, all linked from its first page. */
const websitePage = (i: number) => {
  const sections = Array.from(
    { length: 40 },
    (_, s) =>
      `<h2>Part ${s}</h2><p>Page ${i} explains <strong>part ${s}</strong> with <a href="page-${(i + s) % WEBSITE_PAGES}.html">a link</a>` +
      ` and <code>inline code</code>, in words enough to read like prose.</p>` +
      `<ul><li>first point</li><li>second point</li></ul><pre><code>run --page ${i} --part ${s}</code></pre>` +
      `<table><tr><th>Key</th><th>Value</th></tr><tr><td>a</td><td>${s}</td></tr></table>`
  ).join("\n")
  return `<!doctype html><html><head><meta charset="utf-8"><title>Page ${i} | Docs</title></head>` +
    `<body><nav><a href="index.html">Home</a></nav><main><h1>Page ${i}</h1>${sections}</main></body></html>`
}

const startWebsite = async (): Promise<{ readonly origin: string; readonly close: () => Promise<void> }> => {
  const links = Array.from({ length: WEBSITE_PAGES - 1 }, (_, i) => `<li><a href="page-${i + 1}.html">Page ${i + 1}</a></li>`).join("")
  const pages = new Map<string, string>([
    [
      "/docs/index.html",
      `<!doctype html><html><head><title>Docs</title></head><body><main><h1>Docs</h1><ul>${links}</ul></main></body></html>`
    ],
    ...Array.from({ length: WEBSITE_PAGES - 1 }, (_, i) => [`/docs/page-${i + 1}.html`, websitePage(i + 1)] as const)
  ])
  const server = http.createServer((request, response) => {
    const page = pages.get(request.url ?? "")
    response.writeHead(page === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" })
    response.end(page ?? "not found")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

export const startWorld = async (): Promise<World> => {
  const git = await startGitServer()
  git.create("big")
  commitFiles(git, "big", gitRepository(GIT_PAGES), "A repository of 2,000 pages")
  const website = await startWebsite()
  return {
    git,
    website: `${website.origin}/docs/index.html`,
    close: async () => {
      await website.close()
      await git.close()
    }
  }
}

/** A heavy operation: `prepare` builds what it needs (not measured) and answers the operation, which says what it did. */
export interface HeavyOperation {
  readonly name: string
  readonly prepare: (client: Client, world: World, organizationId: string) => Promise<() => Promise<string>>
}

const newSpace = async (client: Client, organizationId: string, title: string): Promise<string> =>
  (await client.call("POST", `/v1/orgs/${organizationId}/spaces`, { title })).id

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const insertPages = (count: number, from: number) => ({
  changes: Array.from({ length: count }, (_, i) => ({
    operation: "insert_page",
    title: `Page ${from + i}`,
    document: { markdown: `# Page ${from + i}\n\nA short page, number ${from + i}, with [a link](https://example.com/${from + i}).\n` }
  }))
})

export const heavyOperations: ReadonlyArray<HeavyOperation> = [
  {
    name: `Git import (${GIT_PAGES.toLocaleString("en")} pages)`,
    prepare: async (client, world, organizationId) => {
      const spaceId = await newSpace(client, organizationId, "Imported from Git")
      return async () => {
        await client.call("POST", `/v1/spaces/${spaceId}/git/import`, { url: world.git.url("big"), ref: "refs/heads/main" })
        for (;;) {
          const info = await client.call("GET", `/v1/spaces/${spaceId}/git/info`)
          if (info.operation?.state !== "running") {
            if (info.operation?.state !== "success") throw new Error(`the import ended ${JSON.stringify(info.operation)}`)
            const content = await client.call("GET", `/v1/spaces/${spaceId}/content`)
            return `${content.pages.length} top-level pages`
          }
          await sleep(100)
        }
      }
    }
  },
  {
    name: "a 1 MB page as ?format=document",
    prepare: async (client, _world, organizationId) => {
      const spaceId = await newSpace(client, organizationId, "A big page")
      const markdown = bigPage(700_000)
      const written = await client.call("POST", `/v1/spaces/${spaceId}/content`, {
        changes: [{ operation: "insert_page", title: "Big", document: { markdown } }]
      })
      const pageId = written.pages[0].id as string
      return async () => {
        const page = await client.call("GET", `/v1/spaces/${spaceId}/content/page/${pageId}?format=document`)
        return `${(Buffer.byteLength(markdown) / 1e6).toFixed(2)} MB of markdown, ${page.document.nodes.length} nodes`
      }
    }
  },
  {
    name: "a 10 MiB OpenAPI text",
    prepare: async (client, _world, organizationId) => {
      const spec = bigSpec(10 * 1024 * 1024 - 100_000)
      return async () => {
        const answer = await client.call("PUT", `/v1/orgs/${organizationId}/openapi/big`, { source: { text: spec } })
        return `${(Buffer.byteLength(spec) / 1048576).toFixed(2)} MiB, ${answer.processingState}`
      }
    }
  },
  {
    name: `website import (${WEBSITE_PAGES} pages)`,
    prepare: async (client, world, organizationId) => {
      const spaceId = await newSpace(client, organizationId, "Imported website")
      return async () => {
        const answer = await client.call("POST", `/v1/spaces/${spaceId}/content/import`, { source: "website", url: world.website })
        return `${answer.importedResources} of ${answer.totalResources} resources`
      }
    }
  },
  {
    name: `merge of a ${MERGE_PAGES.toLocaleString("en")}-page change request`,
    prepare: async (client, _world, organizationId) => {
      const spaceId = await newSpace(client, organizationId, "A big change")
      const cr = await client.call("POST", `/v1/spaces/${spaceId}/change-requests`, { subject: "Five thousand pages" })
      for (let from = 0; from < MERGE_PAGES; from += 50) {
        await client.call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, insertPages(50, from))
      }
      return async () => {
        const merged = await client.call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)
        return `merge ${merged.result}`
      }
    }
  }
]

/** What the health checks saw while an operation ran. */
export interface Watch {
  readonly took: number
  readonly checks: number
  readonly worst: number
  readonly median: number
  readonly failures: ReadonlyArray<string>
  readonly outcome: string
  /** The checks that waited longest: when each was sent (ms after the operation began) and how long it waited. */
  readonly slowest: ReadonlyArray<readonly [number, number]>
}

/**
 * The health checks, on a thread of their own so that what the operation's client does (encoding a 10 MiB body,
 * reading a 5 MB answer) does not delay them: `/healthz` back to back on one kept-alive connection, the client a load
 * balancer or a poller is; a reset connection is a failure, not retried. Told "stop", it answers its samples.
 */
const checker = `
const http = require("node:http")
const { parentPort, workerData } = require("node:worker_threads")
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const url = new URL("/healthz", workerData.base)
const samples = []
const failures = []
let done = false
parentPort.on("message", () => (done = true))
const check = () => new Promise((resolve, reject) => {
  const request = http.get({ host: url.hostname, port: url.port, path: url.pathname, agent }, (response) => {
    response.resume().on("end", () => (response.statusCode === 200 ? resolve() : reject(new Error("status " + response.statusCode))))
  })
  request.on("error", reject)
})
;(async () => {
  parentPort.postMessage({ kind: "started" })
  while (!done) {
    const sent = performance.timeOrigin + performance.now()
    await check().catch((error) => failures.push(String(error)))
    samples.push([sent, performance.timeOrigin + performance.now() - sent])
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  agent.destroy()
  parentPort.postMessage({ kind: "samples", samples, failures })
})()
`

interface CheckerAnswer {
  readonly kind: "started" | "samples"
  readonly samples: ReadonlyArray<readonly [number, number]>
  readonly failures: ReadonlyArray<string>
}

/** Runs `operation` while the checker asks `/healthz`: what the checks saw. */
export const watch = async (base: string, operation: () => Promise<string>): Promise<Watch> => {
  const worker = new Worker(checker, { eval: true, workerData: { base } })
  const answers: Array<(answer: CheckerAnswer) => void> = []
  worker.on("message", (answer: CheckerAnswer) => answers.shift()?.(answer))
  const next = () => new Promise<CheckerAnswer>((resolve) => answers.push(resolve))
  await next()
  const started = performance.timeOrigin + performance.now()
  try {
    const outcome = await operation()
    const took = performance.timeOrigin + performance.now() - started
    const finished = next()
    worker.postMessage("stop")
    const { samples, failures } = await finished
    const waits = samples.map(([, wait]) => wait).sort((a, b) => a - b)
    return {
      took,
      checks: samples.length,
      worst: waits.at(-1) ?? 0,
      median: waits[Math.floor(waits.length / 2)] ?? 0,
      failures,
      outcome,
      slowest: samples.map(([sent, wait]) => [sent - started, wait] as const).sort((a, b) => b[1] - a[1]).slice(0, 3)
    }
  } finally {
    await worker.terminate()
  }
}

export const describeWatch = (name: string, w: Watch) =>
  `  ${name.padEnd(42)} ${(w.took / 1000).toFixed(2).padStart(6)} s  /healthz: ${String(w.checks).padStart(5)} checks, ` +
  `median ${w.median.toFixed(1).padStart(6)} ms, worst ${w.worst.toFixed(1).padStart(7)} ms, ${w.failures.length} failed  (${w.outcome})`
