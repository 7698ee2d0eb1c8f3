import * as HttpServer from "@effect/platform/HttpServer"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Duration, Effect, Layer } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { apiError } from "./shared/Errors.js"

export interface ConnectionLimits {
  /** A request's headers and body must all arrive within this many milliseconds of its first byte: 408 otherwise. */
  readonly requestTimeoutMs: number
  /** How long an idle kept-alive connection is kept open for the client's next request. */
  readonly keepAliveTimeoutMs: number
  /** How many connections one client address may hold at once (0: no cap); the excess is closed at once. */
  readonly maxConnectionsPerAddress: number
}

/** How long a refused connection stays open after its answer, so the client reads it rather than a reset. */
const LINGER_MS = 1_000

const reasons: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  413: "Payload Too Large",
  431: "Request Header Fields Too Large"
}

/** A whole answer in the API's error shape, written straight to the socket: there is no response object to write it with. */
const rawAnswer = (code: number, message: string): string => {
  const body = JSON.stringify(apiError(code, message))
  return [
    `HTTP/1.1 ${code} ${reasons[code] ?? "Error"}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "X-Content-Type-Options: nosniff",
    "Connection: close",
    "",
    body
  ].join("\r\n")
}

/** The answer Node's parser and timers would give an error of theirs, with a body in the API's shape. */
const answerTo = (error: Error & { readonly code?: string }, timeoutMs: number): string => {
  switch (error.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return rawAnswer(408, `The request's headers and body must arrive within ${timeoutMs} ms`)
    case "HPE_HEADER_OVERFLOW":
      return rawAnswer(431, "The request's headers are too large")
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return rawAnswer(413, "The body's chunk extensions are too large")
    default:
      return rawAnswer(400, "The request is not valid HTTP/1.1")
  }
}

/**
 * Node's HTTP server with the limits a public deployment needs against slow or greedy clients: headers and body
 * within `requestTimeoutMs` of a request's start (408, or a closed connection once an answer has begun), and at most
 * `maxConnectionsPerAddress` connections from one address.
 */
export const makeNodeServer = (limits: ConnectionLimits): Server => {
  // Node checks its deadlines on an interval (30 s by default): often enough that a deadline is held to within a quarter.
  const server = createServer({
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(limits.requestTimeoutMs / 4)))
  })

  // The answer in progress on each connection: a 408 may not be written into the middle of another answer.
  const answering = new WeakMap<Socket, ServerResponse>()
  // A connection is refused once: its parser and Node's deadline checks may report it again while it lingers.
  const refused = new WeakSet<Socket>()
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    answering.set(request.socket, response)
  })
  server.on("clientError", (error: Error & { readonly code?: string }, socket: Socket) => {
    if (refused.has(socket)) return
    refused.add(socket)
    const response = answering.get(socket)
    const midAnswer = response !== undefined && response.headersSent && !response.writableFinished
    if (error.code === "ECONNRESET" || !socket.writable || midAnswer) return void socket.destroy()
    socket.end(answerTo(error, limits.requestTimeoutMs))
    // The client may still be sending: the socket keeps reading for a while so that closing it does not reset the answer away.
    const linger = setTimeout(() => socket.destroy(), LINGER_MS)
    socket.once("close", () => clearTimeout(linger))
  })

  if (limits.maxConnectionsPerAddress > 0) {
    const open = new Map<string, number>()
    server.on("connection", (socket: Socket) => {
      const address = socket.remoteAddress
      if (address === undefined) return
      const count = (open.get(address) ?? 0) + 1
      if (count > limits.maxConnectionsPerAddress) return void socket.destroy()
      open.set(address, count)
      socket.once("close", () => {
        const left = (open.get(address) ?? 1) - 1
        if (left > 0) open.set(address, left)
        else open.delete(address)
      })
    })
  }
  return server
}

/**
 * Marks an answer as its connection's last: `Connection: close` if its headers are still to be written (Node then
 * ends the connection after it), else the connection is closed as soon as the answer is done and it is idle.
 */
const lastAnswer = (server: Server, response: ServerResponse): void => {
  if (!response.headersSent) return void response.setHeader("Connection", "close")
  response.once("finish", () => setImmediate(() => server.closeIdleConnections()))
}

/**
 * A server's stop, the way a deployment's SIGTERM asks for it: `drain` stops listening and closes the idle keep-alive
 * connections (Node's close() does both), lets the requests in flight finish with `Connection: close` on their
 * answers, and after `graceMs` destroys the connections still open; it succeeds once every connection is closed.
 * Made when the server is, since it needs to know the answers in progress.
 */
const stopper = (server: Server, graceMs: number) => {
  let stopping = false
  const unfinished = new Set<ServerResponse>()
  server.on("request", (_request: IncomingMessage, response: ServerResponse) => {
    unfinished.add(response)
    response.once("close", () => unfinished.delete(response))
    if (stopping) lastAnswer(server, response)
  })
  const drain = Effect.async<void>((resume) => {
    stopping = true
    for (const response of unfinished) lastAnswer(server, response)
    const grace = setTimeout(() => server.closeAllConnections(), graceMs)
    server.close(() => {
      clearTimeout(grace)
      resume(Effect.void)
    })
  })
  return { drain, inFlight: () => unfinished.size }
}

/** How long the fibers of requests whose connections were destroyed have to finish before the storage closes. */
const INTERRUPTED_FIBERS_MS = 2_000

/**
 * NodeHttpServer.layer, started and stopped in order. The platform's server listens as soon as its layer is built,
 * before the storage beneath the app is ready, and answers nothing until the app is (requests then hang); when the
 * app's scope closes it removes its handler and closes the Node server only after the storage is released, so requests
 * in flight met a closed storage and keep-alive connections got no answer. This one listens once the app serves, and
 * when the app's scope closes, before anything beneath the app is released, drains (see `stopper`) and awaits the
 * requests' fibers.
 */
export const layer = (evaluate: () => Server, listen: { readonly port: number; readonly host?: string }, graceMs: number) =>
  Layer.merge(
    Layer.sync(HttpServer.HttpServer, () => {
      const server = evaluate()
      const stop = stopper(server, graceMs)
      // The request fibers run detached from any scope: counting them is how the stop knows they are done.
      let running = 0
      let settled: (() => void) | undefined
      const counted = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
        Effect.acquireUseRelease(
          Effect.sync(() => running++),
          () => app,
          () =>
            Effect.sync(() => {
              running--
              if (running > 0) return
              const resume = settled
              settled = undefined
              resume?.()
            })
        )
      const settledFibers = Effect.async<void>((resume) => {
        if (running === 0) return resume(Effect.void)
        settled = () => resume(Effect.void)
      }).pipe(Effect.timeoutTo({ duration: Duration.millis(INTERRUPTED_FIBERS_MS), onSuccess: () => 0, onTimeout: () => running }))
      return HttpServer.make({
        address: { _tag: "TcpAddress", hostname: listen.host ?? "0.0.0.0", port: listen.port },
        serve: (app, middleware) =>
          Effect.gen(function*() {
            // A port already taken ends the start: there is nothing to serve on.
            const platform = yield* Effect.orDie(NodeHttpServer.make(() => server, listen))
            yield* middleware === undefined ? platform.serve(counted(app)) : platform.serve(counted(app), middleware)
            // Added after the platform's finalizers, so it runs before them: the handler stays while the server drains.
            yield* Effect.addFinalizer(() =>
              Effect.gen(function*() {
                yield* Effect.logInfo("Stopping: no new connections, finishing the requests in flight").pipe(
                  Effect.annotateLogs({ inFlight: stop.inFlight(), graceMs })
                )
                yield* stop.drain
                const unfinished = yield* settledFibers
                yield* Effect.logInfo("Stopped serving; closing the storage").pipe(Effect.annotateLogs({ unfinished }))
              })
            )
          })
      })
    }),
    NodeHttpServer.layerContext
  )
