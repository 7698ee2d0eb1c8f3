import * as http from "node:http"
import type { FuzzRequest } from "./generate.js"

export interface Outcome {
  /** -1 when no answer came. */
  readonly status: number
  readonly contentType: string
  readonly text: string
}

/** Connections are kept open between requests: ten thousand new ones would measure the kernel, not the server. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

/** Sockets whose late errors (after a refused body) are already ignored: kept-alive ones serve many requests. */
const quieted = new WeakSet<object>()

/** Sends a request byte for byte (Node's client would reject or normalize some of the paths). */
export const send = (port: number, request: FuzzRequest): Promise<Outcome> =>
  new Promise((resolve) => {
    const headers: Record<string, string> = { ...request.headers }
    if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body))
    let answered = false
    let outgoing: http.ClientRequest
    try {
      outgoing = http.request({ host: "127.0.0.1", port, agent, method: request.method, path: request.path, headers }, (response) => {
        answered = true
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8")
          }))
        response.on("error", () => resolve({ status: -1, contentType: "", text: "" }))
      })
    } catch (error) {
      // Node's client refuses some requests itself: a fault of the fuzzer, reported as such.
      return resolve({ status: -2, contentType: "", text: String(error) })
    }
    // The server may answer a body it refuses before reading it all, and then cut the connection.
    outgoing.on("error", (error) => {
      if (!answered) resolve({ status: -1, contentType: "", text: String(error) })
    })
    outgoing.on("socket", (socket) => {
      if (quieted.has(socket)) return
      quieted.add(socket)
      socket.on("error", () => undefined)
    })
    outgoing.end(request.body)
  })

/** Lets the kept connections go, so the test server can stop. */
export const closeConnections = () => agent.destroy()
