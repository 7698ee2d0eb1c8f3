import * as net from "node:net"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { makeNodeServer } from "../src/NodeServer.js"
import { makeHttpApp } from "../src/Server.js"
import { ADMIN_TOKEN, PUBLIC_URL, serverPort } from "./harness.js"

const TIMEOUT_MS = 300
const MAX_PER_ADDRESS = 3

/** The whole app over the server main.ts starts, with a short request timeout and a small cap per address. */
const server = makeHttpApp(MemoryStorage, { publicUrl: PUBLIC_URL, adminToken: ADMIN_TOKEN }).pipe(
  Layer.provideMerge(
    NodeHttpServer.layer(
      () => makeNodeServer({ requestTimeoutMs: TIMEOUT_MS, keepAliveTimeoutMs: 65_000, maxConnectionsPerAddress: MAX_PER_ADDRESS }),
      {
        port: 0,
        host: "127.0.0.1"
      }
    )
  ),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

/** A raw connection: what it has received so far, and a promise of its close with the time it took from opening. */
interface Connection {
  readonly socket: net.Socket
  readonly received: () => string
  readonly closed: Promise<number>
}

const connect = (port: number): Promise<Connection> =>
  new Promise((resolve, reject) => {
    const opened = Date.now()
    const socket = net.connect({ host: "127.0.0.1", port })
    let text = ""
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
    // A reset after (or instead of) the answer is a close like any other here.
    socket.on("error", () => undefined)
    const closed = new Promise<number>((done) => socket.once("close", () => done(Date.now() - opened)))
    socket.once("connect", () => resolve({ socket, received: () => text, closed }))
    socket.once("error", reject)
  })

const untilReceived = async (connection: Connection, pattern: RegExp, withinMs: number): Promise<string> => {
  const deadline = Date.now() + withinMs
  while (!pattern.test(connection.received()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
  return connection.received()
}

const head = (lines: ReadonlyArray<string>) => lines.map((line) => `${line}\r\n`).join("")

const statusOf = (text: string): number => Number(text.split(" ")[1])

/** The status, head and JSON body of the one refusal in `text` (sent with a Content-Length, so its body is the rest). */
const parseAnswer = (text: string) => {
  const [top = "", body = ""] = text.split("\r\n\r\n")
  return { status: statusOf(top), head: top.toLowerCase(), body: body === "" ? null : JSON.parse(body) }
}

const healthz = head(["GET /healthz HTTP/1.1", "Host: octavo.test", ""])

layer(server, { excludeTestServices: true })("request timeouts and connections per address", (it) => {
  it.effect("a body sent a byte every 200 ms is cut by a 408 in the error shape", () =>
    Effect.gen(function*() {
      const port = yield* serverPort
      const connection = yield* Effect.promise(() => connect(port))
      const body = JSON.stringify({ title: "a slow organization" })
      connection.socket.write(head([
        "POST /v1/orgs HTTP/1.1",
        "Host: octavo.test",
        `Authorization: Bearer ${ADMIN_TOKEN}`,
        "Content-Type: application/json",
        `Content-Length: ${body.length}`,
        ""
      ]))
      let sent = 0
      const trickle = setInterval(() => {
        if (sent < body.length && connection.socket.writable) connection.socket.write(body[sent++] ?? "")
      }, 200)
      const closedAfter = yield* Effect.promise(() => connection.closed)
      clearInterval(trickle)
      // The deadline, Node's check interval and the linger after the answer, with room for a slow machine.
      expect(closedAfter).toBeLessThan(TIMEOUT_MS + 1_000 + 2_000)
      expect(sent).toBeLessThan(body.length)
      const answer = parseAnswer(connection.received())
      expect(answer.status).toBe(408)
      expect(answer.head).toContain("content-type: application/json")
      expect(answer.head).toContain("connection: close")
      expect(answer.body).toEqual({ error: { code: 408, message: `The request's headers and body must arrive within ${TIMEOUT_MS} ms` } })
    }))

  it.effect("a client that never finishes its headers is cut", () =>
    Effect.gen(function*() {
      const port = yield* serverPort
      const connection = yield* Effect.promise(() => connect(port))
      connection.socket.write("GET /healthz HTTP/1.1\r\nHost: octavo.test\r\n")
      const closedAfter = yield* Effect.promise(() => connection.closed)
      expect(closedAfter).toBeLessThan(TIMEOUT_MS + 1_000 + 2_000)
      expect(parseAnswer(connection.received())).toMatchObject({ status: 408, body: { error: { code: 408 } } })
    }))

  it.effect("what is not HTTP, or headers over Node's limit, gets its refusal in the error shape", () =>
    Effect.gen(function*() {
      const port = yield* serverPort
      const garbage = yield* Effect.promise(() => connect(port))
      garbage.socket.write("NOT HTTP AT ALL\r\n\r\n")
      yield* Effect.promise(() => garbage.closed)
      expect(parseAnswer(garbage.received())).toMatchObject({ status: 400, body: { error: { code: 400 } } })
      const huge = yield* Effect.promise(() => connect(port))
      huge.socket.write(head(["GET /healthz HTTP/1.1", "Host: octavo.test", `X-Filler: ${"x".repeat(20_000)}`, ""]))
      yield* Effect.promise(() => huge.closed)
      expect(parseAnswer(huge.received())).toMatchObject({ status: 431, body: { error: { code: 431 } } })
    }))

  it.effect("a request sent at once is answered, and its connection kept for the next", () =>
    Effect.gen(function*() {
      const port = yield* serverPort
      const connection = yield* Effect.promise(() => connect(port))
      connection.socket.write(healthz)
      const first = yield* Effect.promise(() => untilReceived(connection, /\r\n\r\n.+/s, 2_000))
      expect(statusOf(first)).toBe(200)
      // Idle between requests is no slow request: the connection still answers after the timeout has passed.
      yield* Effect.sleep(TIMEOUT_MS * 2)
      connection.socket.write(healthz)
      const both = yield* Effect.promise(() => untilReceived(connection, /HTTP\/1\.1 200[\s\S]*HTTP\/1\.1 200/, 2_000))
      expect(both.match(/HTTP\/1\.1 200/g)).toHaveLength(2)
      connection.socket.destroy()
      yield* Effect.promise(() => connection.closed)
    }))

  it.effect("connections over the cap for one address are closed at once, and a closed one frees its place", () =>
    Effect.gen(function*() {
      const port = yield* serverPort
      const held = yield* Effect.promise(() => Promise.all(Array.from({ length: MAX_PER_ADDRESS }, () => connect(port))))
      // Each held connection is busy with a request, so it is counted before the excess arrives.
      for (const connection of held) connection.socket.write(healthz)
      for (const connection of held) yield* Effect.promise(() => untilReceived(connection, /\r\n\r\n.+/s, 2_000))
      const excess = yield* Effect.promise(() => Promise.all([connect(port), connect(port)]))
      for (const connection of excess) {
        // Closed well before any deadline of the server could have cut it, with nothing written.
        expect(yield* Effect.promise(() => connection.closed)).toBeLessThan(TIMEOUT_MS)
        expect(connection.received()).toBe("")
      }
      // The held ones still answer.
      held[0]?.socket.write(healthz)
      const again = yield* Effect.promise(() => untilReceived(held[0] as Connection, /HTTP\/1\.1 200[\s\S]*HTTP\/1\.1 200/, 2_000))
      expect(again.match(/HTTP\/1\.1 200/g)).toHaveLength(2)
      // Once one of them closes, a new connection is served.
      held[1]?.socket.destroy()
      yield* Effect.promise(() => (held[1] as Connection).closed)
      yield* Effect.sleep(50)
      const fresh = yield* Effect.promise(() => connect(port))
      fresh.socket.write(healthz)
      expect(statusOf(yield* Effect.promise(() => untilReceived(fresh, /\r\n\r\n.+/s, 2_000)))).toBe(200)
      for (const connection of [...held, fresh]) connection.socket.destroy()
    }))
})
