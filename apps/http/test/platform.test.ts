import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MAX_BODY_BYTES } from "../src/Server.js"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpServer from "@effect/platform/HttpServer"
import { ADMIN_TOKEN, call, declaredBodyStatus, testServer } from "./harness.js"

const docsPage = Effect.gen(function*() {
  const response = yield* (yield* HttpClient.HttpClient).get("/docs")
  return { status: response.status, text: yield* response.text }
}).pipe(Effect.scoped, Effect.orDie)

layer(testServer(MemoryStorage), { excludeTestServices: true })("platform", (it) => {
  it.effect("liveness and readiness answer without a token", () =>
    Effect.gen(function*() {
      expect(yield* call("GET", "/healthz")).toMatchObject({ status: 200, body: { status: "ok" } })
      expect(yield* call("GET", "/readyz")).toMatchObject({ status: 200, body: { status: "ok" } })
    }))

  it.effect("the OpenAPI document and the reference page are served by the server itself", () =>
    Effect.gen(function*() {
      const openapi = yield* call("GET", "/openapi.json")
      expect(openapi.status).toBe(200)
      expect(openapi.body.openapi).toBe("3.1.0")
      expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining([
        "/v1/orgs",
        "/v1/orgs/{organizationId}/members",
        "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}",
        "/v1/users/{userId}/tokens"
      ]))
      const docs = yield* docsPage
      expect(docs.status).toBe(200)
      expect(docs.text).toContain("<title>Octavo API</title>")
      // The page works offline: no script comes from a CDN.
      expect(docs.text).not.toMatch(/<script[^>]+src=/)
    }))

  it.effect("bad input gets the error body: invalid JSON, unknown route, wrong types", () =>
    Effect.gen(function*() {
      const invalid = yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, rawBody: "{not json" })
      expect(invalid).toMatchObject({ status: 400, body: { error: { code: 400, message: "body: must be valid JSON" } } })
      const unknown = yield* call("GET", "/v1/nothing-here", { token: ADMIN_TOKEN })
      expect(unknown).toMatchObject({ status: 404, body: { error: { code: 404, message: "No such endpoint" } } })
      const wrongType = yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, body: { title: ["x"] } })
      expect(wrongType.status).toBe(400)
      expect(wrongType.body.error.message).toMatch(/^title: /)
      const extra = yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, body: { title: "Fine", unknownField: 1 } })
      expect(extra.status).toBe(201)
    }))

  it.effect("a body over the limit is refused with 413", () =>
    Effect.gen(function*() {
      const server = yield* HttpServer.HttpServer
      const address = server.address
      if (address._tag !== "TcpAddress") throw new Error("expected a TCP server")
      const status = yield* declaredBodyStatus(`http://127.0.0.1:${address.port}/v1/orgs`, MAX_BODY_BYTES + 1, ADMIN_TOKEN)
      expect(status).toBe(413)
      const fits = yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, rawBody: JSON.stringify({ title: "ok", pad: "x".repeat(1000) }) })
      expect(fits.status).toBe(201)
    }))
})
