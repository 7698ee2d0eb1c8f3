import * as http from "node:http"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { MemoryStorage } from "@octavo/adapters-memory"
import type { WorkerPoolOptions } from "@octavo/adapters-node"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { bigPage, bigSpec } from "../bench/bigInputs.js"
import { makeHttpApp } from "../src/Server.js"
import { ADMIN_TOKEN, PUBLIC_URL } from "./harness.js"

// Issue 13: large pages and specs are parsed on worker threads (packages/adapters-node/src/shared/WorkerPool.ts), so the server keeps
// answering while one is read; a parse that takes too long, or kills its worker, is a 400 and the worker replaced.

const serverWith = (parse: Partial<WorkerPoolOptions>) =>
  makeHttpApp(MemoryStorage, { publicUrl: PUBLIC_URL, adminToken: ADMIN_TOKEN, parse }).pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )

interface Raw {
  readonly status: number
  readonly body: ReturnType<typeof JSON.parse>
}

/** One request on its own connection; `onSent` is told when the whole body has been handed to the socket. */
const send = (port: number, method: string, path: string, body?: unknown, onSent?: () => void) =>
  new Promise<Raw>((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const request = http.request({
      host: "127.0.0.1",
      port,
      method,
      path,
      agent: false,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(text === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
      }
    }, (response) => {
      let data = ""
      response.setEncoding("utf8").on("data", (chunk: string) => (data += chunk)).on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: data === "" ? null : JSON.parse(data) }))
    })
    request.on("error", reject)
    request.end(text, onSent)
  })

const portOf = Effect.map(HttpServer.HttpServer, (server) => {
  if (server.address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return server.address.port
})

// Parsed in the server's thread, only the few probes sent before the parse starts (3 to 6 here) come before the
// write's answer; parsed in a worker, thousands do.
const PROBES = 100

/**
 * Sends the big write, and once its body is sent, PROBES health checks one after another: the order the
 * answers arrive in, and the write's answer.
 */
const whileWriting = (port: number, method: string, path: string, body: unknown) =>
  Effect.promise(async () => {
    const order: Array<string> = []
    let bodySent: () => void = () => undefined
    const sent = new Promise<void>((resolve) => (bodySent = resolve))
    const write = send(port, method, path, body, () => bodySent()).then((answer) => {
      order.push("write")
      return answer
    })
    await sent
    for (let i = 0; i < PROBES; i++) {
      const probe = await send(port, "GET", "/healthz")
      order.push(`healthz ${probe.status}`)
    }
    return { order, answer: await write }
  })

const setUp = (port: number) =>
  Effect.promise(async () => {
    const org = await send(port, "POST", "/v1/orgs", { title: "Parsing" })
    const space = await send(port, "POST", `/v1/orgs/${org.body.id}/spaces`, { title: "Big pages" })
    return { orgId: org.body.id as string, spaceId: space.body.id as string }
  })

const insertPage = (markdown: string) => ({ changes: [{ operation: "insert_page", document: { markdown } }] })

// ~1.45 MB of UTF-8 in 990,000 characters (a page holds at most 1,000,000), with one link to resolve.
const page = `${bigPage(990_000)}\nSee [home](./nowhere.md).\n`
const pageBody = page.slice(page.indexOf("## Section 0")).replace("[home](./nowhere.md)", "home")
const spec = bigSpec(3 * 1024 * 1024)
const probesFirst = [...Array.from({ length: PROBES }, () => "healthz 200"), "write"]

describe("parsing off the event loop", () => {
  layer(serverWith({ workers: 1 }), { excludeTestServices: true, timeout: 120_000 })("with a worker", (it) => {
    it.effect("health checks are answered while a 1.45 MB page is parsed, and the page is written as sent", () =>
      Effect.gen(function*() {
        const port = yield* portOf
        const { spaceId } = yield* setUp(port)
        const { order, answer } = yield* whileWriting(port, "POST", `/v1/spaces/${spaceId}/content`, insertPage(page))
        expect(order).toEqual(probesFirst)
        expect(answer.status).toBe(200)
        const written = (answer.body.pages as ReadonlyArray<{ id: string; title: string }>).find((p) => p.title === "A long page")
        const read = yield* Effect.promise(() => send(port, "GET", `/v1/spaces/${spaceId}/content/page/${written?.id}?format=markdown`))
        expect(read.body.markdown).toBe(pageBody)
        // Search read the sections in the worker too.
        const found = yield* Effect.promise(() => send(port, "GET", `/v1/spaces/${spaceId}/search?query=topic`))
        expect([found.status, found.body.items[0]?.id]).toEqual([200, written?.id])
      }))

    it.effect("health checks are answered while a 3 MiB OpenAPI YAML is processed", () =>
      Effect.gen(function*() {
        const port = yield* portOf
        const { orgId } = yield* setUp(port)
        const { order, answer } = yield* whileWriting(port, "PUT", `/v1/orgs/${orgId}/openapi/big`, { source: { text: spec } })
        expect(order).toEqual(probesFirst)
        expect([answer.status, answer.body.processingState]).toEqual([201, "complete"])
      }))

    it.effect("a spec's errors are the same 400 from a worker as from the server's thread", () =>
      Effect.gen(function*() {
        const port = yield* portOf
        const { orgId } = yield* setUp(port)
        const broken = (text: string) => `${text}\n  /broken:\n    $ref: "#/components/missing"\n`
        const put = (slug: string, text: string) =>
          Effect.promise(() => send(port, "PUT", `/v1/orgs/${orgId}/openapi/${slug}`, { source: { text: broken(text) } }))
        const inThread = yield* put("small", bigSpec(1_000))
        const inWorker = yield* put("large", spec)
        expect([inWorker.status, inWorker.body.error.message]).toEqual([400, inThread.body.error.message])
        expect(inThread.body.error.message).toBe(
          "source.text: is not a valid OpenAPI document: $ref \"#/components/missing\" at /paths/~1broken does not resolve"
        )
      }))
  })

  layer(serverWith({ workers: 1, timeoutMs: 50 }), { excludeTestServices: true, timeout: 120_000 })("past the time limit", (it) => {
    it.effect("a page or spec not read in time is a 400, nothing is written, and the replaced worker serves the next", () =>
      Effect.gen(function*() {
        const port = yield* portOf
        const { orgId, spaceId } = yield* setUp(port)
        const before = yield* Effect.promise(() => send(port, "GET", `/v1/spaces/${spaceId}/content`))
        for (let attempt = 0; attempt < 2; attempt++) {
          const slow = yield* Effect.promise(() => send(port, "POST", `/v1/spaces/${spaceId}/content`, insertPage(page)))
          expect([slow.status, slow.body.error.message]).toEqual([400, "changes.0.document: could not be read within 0.05 s"])
        }
        const after = yield* Effect.promise(() => send(port, "GET", `/v1/spaces/${spaceId}/content`))
        expect(after.body.id).toBe(before.body.id)
        const slowSpec = yield* Effect.promise(() => send(port, "PUT", `/v1/orgs/${orgId}/openapi/big`, { source: { text: spec } }))
        expect([slowSpec.status, slowSpec.body.error.message]).toEqual([400, "source.text: could not be read within 0.05 s"])
        // Below the threshold pages are parsed in the server's thread, with no time limit.
        const small = yield* Effect.promise(() => send(port, "POST", `/v1/spaces/${spaceId}/content`, insertPage(bigPage(4_000, "Small"))))
        expect(small.status).toBe(200)
      }))
  })

  layer(serverWith({ workers: 1, heapMb: 200 }), { excludeTestServices: true, timeout: 120_000 })("a worker that dies", (it) => {
    it.effect("a page that exhausts the worker's heap is a 400, and a new worker reads the next page", () =>
      Effect.gen(function*() {
        const port = yield* portOf
        const { spaceId } = yield* setUp(port)
        const huge = yield* Effect.promise(() => send(port, "POST", `/v1/spaces/${spaceId}/content`, insertPage(page)))
        expect([huge.status, huge.body.error.message]).toEqual([
          400,
          "changes.0.document: could not be read: its parser stopped (out of memory)"
        ])
        const health = yield* Effect.promise(() => send(port, "GET", "/healthz"))
        expect(health.status).toBe(200)
        // Above the threshold (8 Ki characters), so parsed by the worker that replaced the dead one.
        const medium = bigPage(20_000, "Medium")
        const next = yield* Effect.promise(() => send(port, "POST", `/v1/spaces/${spaceId}/content`, insertPage(medium)))
        expect(next.status).toBe(200)
      }))
  })
})
