import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { apiError } from "./shared/Errors.js"

export interface ConnectionLimits {
  /** A request's headers and body must all arrive within this many milliseconds of its first byte: 408 otherwise. */
  readonly requestTimeoutMs: number
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
