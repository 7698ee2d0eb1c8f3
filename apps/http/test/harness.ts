import * as http from "node:http"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { StoragePorts } from "@octavo/domain"
import { Effect, Layer, Logger, LogLevel, Schema } from "effect"
import { makeHttpApp, type ServerOptions } from "../src/Server.js"
import { recordAnswer } from "./conformance.js"

export const ADMIN_TOKEN = "test-admin-token"
export const PUBLIC_URL = "https://docs.test"

/** The port a test server listens on, for clients that speak HTTP themselves (fetch, raw sockets, a browser). */
export const serverPort = Effect.map(HttpServer.HttpServer, (server) => {
  if (server.address._tag !== "TcpAddress") throw new Error("the test server listens on TCP")
  return server.address.port
})

/** The test server's origin, as a browser or fetch reaches it. */
export const serverOrigin = Effect.map(serverPort, (port) => `http://127.0.0.1:${port}`)

/**
 * Rate limits in tests: on, so every answer goes through them, but far above the thousands of requests a test file
 * makes from one token and one address (the test clock never ends a window). rateLimit.test.ts sets low ones.
 */
const TEST_RATE_LIMITS = { perToken: 1_000_000, perAddress: 1_000_000 }

/** The application on a test server, over the given storage, with an HttpClient aimed at it. */
export const testServer = (
  storage: Layer.Layer<StoragePorts, unknown>,
  options: Pick<ServerOptions, "fetch" | "rateLimit" | "secretKey"> = {}
) =>
  makeHttpApp(storage, {
    publicUrl: PUBLIC_URL,
    adminToken: ADMIN_TOKEN,
    ...options,
    rateLimit: { ...TEST_RATE_LIMITS, ...options.rateLimit }
  }).pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    // Request logs would drown the test report; warnings and errors still show.
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )

export interface Answer {
  readonly status: number
  /** Parsed JSON of any shape, as `JSON.parse` gives it: each test states what it expects of it. */
  readonly body: ReturnType<typeof JSON.parse>
  readonly headers: Readonly<Record<string, string | undefined>>
}

export interface CallOptions {
  /** More request headers (a visitor's share key or cookie, say). */
  readonly headers?: Readonly<Record<string, string>>
  readonly token?: string | undefined
  readonly body?: unknown
  /** Sent as is, to test bodies that are not JSON. */
  readonly rawBody?: string
}

/**
 * One HTTP call; answers its status, parsed JSON body (null when empty) and headers. Each answer is
 * checked against GitBook's schema for the same operation (see conformance.ts).
 */
export const call = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, options: CallOptions = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(path)
    if (options.token !== undefined) request = HttpClientRequest.bearerToken(request, options.token)
    if (options.headers !== undefined) request = HttpClientRequest.setHeaders(request, options.headers)
    if (options.rawBody !== undefined) {
      request = HttpClientRequest.bodyText(request, options.rawBody, "application/json")
    } else if (options.body !== undefined) {
      request = yield* HttpClientRequest.bodyJson(request, options.body)
    }
    const response = yield* client.execute(request)
    const text = yield* response.text
    const body: Answer["body"] = text === "" ? undefined : JSON.parse(text)
    recordAnswer(method, path, response.status, body)
    return {
      status: response.status,
      body: body ?? null,
      headers: response.headers
    } satisfies Answer
  }).pipe(Effect.scoped, Effect.orDie)

/** An answer's body read by one of the API's own wire schemas: typed, and checked to have that shape. */
export const bodyAs = <A, I>(schema: Schema.Schema<A, I>, answer: Answer): A => Schema.decodeUnknownSync(schema)(answer.body)

/**
 * Sends a request that declares a body of `declaredBytes` but writes only a little of it,
 * as a client streaming a large upload would; answers the status the server gives.
 */
export const declaredBodyStatus = (url: string, declaredBytes: number, token: string) =>
  Effect.async<number>((resume) => {
    const request = http.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(declaredBytes), authorization: `Bearer ${token}` }
    }, (response) => {
      response.resume()
      resume(Effect.succeed(response.statusCode ?? 0))
    })
    request.on("error", () => resume(Effect.succeed(-1)))
    request.write("{\"title\": \"")
  })
