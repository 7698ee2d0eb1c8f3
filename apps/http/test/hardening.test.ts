import * as http from "node:http"
import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect, HashMap, Layer, Logger } from "effect"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { makeHttpApp, MAX_BODY_BYTES, MAX_JSON_DEPTH } from "../src/Server.js"
import { ADMIN_TOKEN, call, PUBLIC_URL, serverPort, testServer } from "./harness.js"

interface RawAnswer {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: ReturnType<typeof JSON.parse>
}

interface RawRequest {
  readonly method: string
  readonly path: string
  readonly headers?: Record<string, string>
  /** Written in these pieces without a length, so Node sends the body chunked. */
  readonly chunks?: ReadonlyArray<string>
  /** Written at once with its Content-Length. */
  readonly body?: string | Buffer
}

/** One request over node:http, as a client that picks its own content type and framing would send it. */
const raw = (request: RawRequest) =>
  Effect.flatMap(serverPort, (port) =>
    Effect.async<RawAnswer>((resume) => {
      const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}`, ...request.headers }
      if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body))
      let answered = false
      const outgoing = http.request({ host: "127.0.0.1", port, method: request.method, path: request.path, headers }, (response) => {
        answered = true
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          resume(
            Effect.succeed({ status: response.statusCode ?? 0, headers: response.headers, body: text === "" ? null : JSON.parse(text) })
          )
        })
      })
      // The server may answer before the whole body is sent: an error after the answer is no failure, one before is -1.
      outgoing.on("error", () => {
        if (!answered) resume(Effect.succeed({ status: -1, headers: {}, body: null }))
      })
      // Writes still queued when the server cuts the connection fail on the socket after the request
      // has let go of it: the request's handler above has decided already, so they are only noise.
      outgoing.on("socket", (socket) => socket.on("error", () => undefined))
      if (request.body !== undefined) outgoing.end(request.body)
      else {
        for (const chunk of request.chunks ?? []) outgoing.write(chunk)
        outgoing.end()
      }
    }))

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const createOrg = (body: string, contentType = "application/json") =>
  raw({ method: "POST", path: "/v1/orgs", headers: { "content-type": contentType }, body })

const logs: Array<{ readonly message: string; readonly annotations: Record<string, unknown> }> = []
const capture = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ annotations, message }) =>
    logs.push({ message: String(message), annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
  )
)

layer(testServer(MemoryStorage), { excludeTestServices: true })("hardening", (it) => {
  it.effect("JSON nested deeper than the limit is a 400 before decoding, on every body", () =>
    Effect.gen(function*() {
      const deep = yield* createOrg(nested(10_000))
      expect(deep).toMatchObject({
        status: 400,
        body: { error: { code: 400, message: `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels` } }
      })
      // The object holding the field is the first level: 63 arrays inside it make 64 levels.
      const atLimit = yield* createOrg(`{"title":"Deep enough","pad":${nested(MAX_JSON_DEPTH - 1)}}`)
      expect(atLimit.status).toBe(201)
      const overLimit = yield* createOrg(`{"title":"Too deep","pad":${nested(MAX_JSON_DEPTH)}}`)
      expect(overLimit.status).toBe(400)
      // Brackets inside strings, escaped quotes included, are text, not nesting.
      const inString = yield* createOrg(JSON.stringify({ title: "Brackets", note: `\\"${"[{".repeat(200)}` }))
      expect(inString.status).toBe(201)
      const org = yield* createOrg(JSON.stringify({ title: "Target" }))
      const patch = yield* raw({
        method: "PATCH",
        path: `/v1/orgs/${org.body.id}`,
        headers: { "content-type": "application/json" },
        body: `{"title":${nested(10_000)}}`
      })
      expect(patch).toMatchObject({ status: 400, body: { error: { code: 400 } } })
    }))

  it.effect("a body that is not UTF-8 is a 400, not read as replacement characters and stored", () =>
    Effect.gen(function*() {
      const before = Buffer.from(`{"title":"Caf`)
      const after = Buffer.from(`"}`)
      // A lone continuation byte, an overlong slash, a surrogate encoded in UTF-8: none is UTF-8.
      for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
        const answer = yield* raw({
          method: "POST",
          path: "/v1/orgs",
          headers: { "content-type": "application/json" },
          body: Buffer.concat([before, Buffer.from(bad), after])
        })
        expect(answer).toMatchObject({ status: 400, body: { error: { code: 400, message: "body: is not valid UTF-8" } } })
      }
      const fine = yield* createOrg(`{"title":"Café ☕"}`)
      expect(fine).toMatchObject({ status: 201, body: { title: "Café ☕" } })
    }))

  it.effect("a body that is not application/json is refused with 415 saying what to send", () =>
    Effect.gen(function*() {
      const refused = { status: 415, body: { error: { code: 415, message: "send the body as application/json" } } }
      const json = JSON.stringify({ title: "Typed" })
      expect(yield* createOrg(json, "text/plain")).toMatchObject(refused)
      expect(yield* createOrg("--x\r\n", "multipart/form-data")).toMatchObject(refused)
      expect(
        yield* createOrg("--x\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nT\r\n--x--\r\n", "multipart/form-data; boundary=x")
      )
        .toMatchObject(refused)
      expect(yield* createOrg("title=Form", "application/x-www-form-urlencoded")).toMatchObject(refused)
      // A content type that is not JSON is refused even without a body: multipart without a boundary was a 500.
      expect(yield* raw({ method: "POST", path: "/v1/orgs", headers: { "content-type": "multipart/form-data" } })).toMatchObject(refused)
      expect(yield* createOrg(json, "application/jsonp")).toMatchObject(refused)
      expect(yield* raw({ method: "POST", path: "/v1/orgs", body: json })).toMatchObject(refused)
      expect((yield* createOrg(json, "Application/JSON; charset=utf-8")).status).toBe(201)
    }))

  it.effect("requests without a body need no content type", () =>
    Effect.gen(function*() {
      const org = yield* createOrg(JSON.stringify({ title: "Bodiless" }))
      expect((yield* raw({ method: "GET", path: `/v1/orgs/${org.body.id}` })).status).toBe(200)
      const ping = yield* raw({ method: "POST", path: `/v1/orgs/${org.body.id}/ping` })
      expect(ping.status).toBe(200)
      // As GitBook's client sends it: a JSON content type on a request without a body.
      const typed = yield* raw({ method: "POST", path: `/v1/orgs/${org.body.id}/ping`, headers: { "content-type": "application/json" } })
      expect(typed.status).toBe(200)
      // Chunked with nothing in it is no body either.
      const emptyChunked = yield* raw({ method: "POST", path: `/v1/orgs/${org.body.id}/ping`, headers: { "transfer-encoding": "chunked" } })
      expect(emptyChunked.status).toBe(200)
    }))

  it.effect("a body over the limit is a 413, chunked or sized, and the server goes on", () =>
    Effect.gen(function*() {
      const tooLarge = { status: 413, body: { error: { code: 413, message: `The body is over the limit of ${MAX_BODY_BYTES} bytes` } } }
      const piece = "x".repeat(64 * 1024)
      const chunks = [`{"title":"Big","pad":"`, ...Array.from({ length: (MAX_BODY_BYTES / piece.length) + 2 }, () => piece), `"}`]
      const chunked = yield* raw({ method: "POST", path: "/v1/orgs", headers: { "content-type": "application/json" }, chunks })
      expect(chunked).toMatchObject(tooLarge)
      // Far past the limit the rest is read and dropped, then the connection is cut: the 413 still arrives first.
      const huge = [chunks[0] ?? "", ...Array.from({ length: (6 * MAX_BODY_BYTES) / piece.length }, () => piece)]
      expect(yield* raw({ method: "POST", path: "/v1/orgs", headers: { "content-type": "application/json" }, chunks: huge }))
        .toMatchObject(tooLarge)
      const sized = yield* createOrg(chunks.join(""))
      expect(sized).toMatchObject(tooLarge)
      // Under the limit, chunked bodies are read as usual.
      const small = yield* raw({
        method: "POST",
        path: "/v1/orgs",
        headers: { "content-type": "application/json" },
        chunks: [`{"title":"Sm`, `all"}`]
      })
      expect(small).toMatchObject({ status: 201, body: { title: "Small" } })
    }))

  it.effect("every answer has the security headers and a request id", () =>
    Effect.gen(function*() {
      for (
        const answer of [
          yield* raw({ method: "GET", path: "/healthz" }),
          yield* raw({ method: "GET", path: "/v1/nothing" }),
          yield* createOrg("{}", "text/plain"),
          yield* raw({ method: "GET", path: "/openapi.json" })
        ]
      ) {
        expect(answer.headers["x-content-type-options"]).toBe("nosniff")
        expect(answer.headers["x-powered-by"]).toBeUndefined()
        expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
      }
      const docs = yield* Effect.flatMap(serverPort, (port) =>
        Effect.promise(() =>
          fetch(`http://127.0.0.1:${port}/docs`).then(async (r) => ({ headers: r.headers, text: await r.text() }))
        ))
      const policy = docs.headers.get("content-security-policy") ?? ""
      expect(policy).toContain("default-src 'none'")
      expect(policy).toContain("frame-ancestors 'none'")
      expect(policy).not.toMatch(/https?:|\*|'unsafe-eval'/)
      expect(docs.text).toContain("<title>Octavo API</title>")
      const echoed = yield* raw({ method: "GET", path: "/healthz", headers: { "x-request-id": "client-42.abc" } })
      expect(echoed.headers["x-request-id"]).toBe("client-42.abc")
      const insane = yield* raw({ method: "GET", path: "/healthz", headers: { "x-request-id": "a b<script>" + "x".repeat(200) } })
      expect(insane.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
    }))
})

// The request log at its usual level, caught instead of printed.
const loggedServer = makeHttpApp(MemoryStorage, { publicUrl: PUBLIC_URL, adminToken: ADMIN_TOKEN }).pipe(
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provide(capture)
)

layer(loggedServer, { excludeTestServices: true })("request log", (it) => {
  it.effect("the request log line carries the request id", () =>
    Effect.gen(function*() {
      const answer = yield* call("GET", "/healthz")
      expect(answer.status).toBe(200)
      const id = answer.headers["x-request-id"]
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      const line = logs.find((entry) => /sent http response/i.test(entry.message) && entry.annotations["http.url"] === "/healthz")
      expect(line?.annotations.requestId).toBe(id)
    }))
})
