import { isUtf8 } from "node:buffer"
import type { IncomingMessage } from "node:http"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMethod from "@effect/platform/HttpMethod"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Effect, Option } from "effect"
import { giveTurn } from "@octavo/domain"
import type { BodyLimit } from "../shared/Contract.js"
import { respond } from "./ErrorBodies.js"
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from "./Limits.js"

/** After refusing a body as too large, this much more of it (times the limit) is read and dropped so the client can read the 413; then the connection is cut. */
const DRAIN_FACTOR = 4

/** The body limit of a request: MAX_BODY_BYTES, or more on the few routes that take more (integrations' publish, OpenAPI specs). */
const bodyLimitOf = (routes: ReadonlyArray<BodyLimit>, request: HttpServerRequest.HttpServerRequest): number => {
  const path = request.url.split("?")[0] ?? ""
  return routes.find((route) => route.method === request.method && route.path.test(path))?.maxBytes ?? MAX_BODY_BYTES
}

const unsupportedType = () => respond(415, "send the body as application/json")
const tooLarge = (limit: number) => respond(413, `The body is over the limit of ${limit} bytes`)

const isJsonType = (contentType: string | undefined): boolean =>
  contentType !== undefined && (contentType.split(";")[0] ?? "").trim().toLowerCase() === "application/json"

const isFormType = (contentType: string | undefined): boolean =>
  contentType !== undefined && (contentType.split(";")[0] ?? "").trim().toLowerCase() === "application/x-www-form-urlencoded"

/** Where browsers post forms. */
const formPaths = new Set(["/sign-in", "/sign-out"])

/** Whether a JSON text opens more than `max` arrays or objects at once; brackets inside strings are text. */
const nestedDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 0x5c) i++ // an escape: the next character is text, a quote included
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > max) return true
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return false
}

/** Reads and drops what is left of a refused body, up to DRAIN_FACTOR times the limit, so the answer is not lost to a reset. */
const drain = (incoming: IncomingMessage, limit: number, onData?: (chunk: Buffer) => void) => {
  let dropped = 0
  if (onData !== undefined) incoming.off("data", onData)
  incoming.on("data", (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > DRAIN_FACTOR * limit) incoming.destroy()
  })
  incoming.resume()
}

/** The body as text, or None when it goes over `limit` (chunked bodies have no declared length). */
const readBody = (incoming: IncomingMessage, limit: number) =>
  Effect.async<Option.Option<Buffer>>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      chunks.length = 0
      drain(incoming, limit, onData)
      resume(Effect.succeed(Option.none()))
    }
    const onEnd = () => {
      if (size <= limit) resume(Effect.succeed(Option.some(Buffer.concat(chunks))))
    }
    // A client that goes away mid-body gets no answer: the request is interrupted.
    const onError = () => resume(Effect.interrupt)
    incoming.on("data", onData).once("end", onEnd).once("error", onError)
    return Effect.sync(() => {
      incoming.off("data", onData).off("end", onEnd).off("error", onError)
    })
  })

/**
 * The request as the platform made it (socket, response, address), with its body already read: `text` and
 * `json`, which reads `text`, answer from it. Reading the platform's stream twice would wait forever.
 */
const withBodyText = (request: HttpServerRequest.HttpServerRequest, text: string): HttpServerRequest.HttpServerRequest =>
  Object.create(request, {
    text: { value: Effect.succeed(text) },
    modify: {
      value: (options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]) => withBodyText(request.modify(options), text)
    }
  }) as HttpServerRequest.HttpServerRequest

/**
 * Every body is JSON: a body without a content type, or any content type but application/json, is a 415
 * (multipart and form bodies are not read at all). A body over its route's limit is a 413, declared or found while
 * reading a chunked one, and JSON nested deeper than MAX_JSON_DEPTH a 400, before the API decodes it. Requests
 * without a body need no content type.
 */
export const readJsonBody = (routes: ReadonlyArray<BodyLimit>) => (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (!HttpMethod.hasBody(request.method)) return app
    const contentType = request.headers["content-type"]
    // The browser's sign-in form is the one body that is not JSON (apps/http/src/reader/AppRoutes.ts).
    const form = isFormType(contentType) && formPaths.has(request.url.split("?")[0] ?? "")
    if (contentType !== undefined && !isJsonType(contentType) && !form) return unsupportedType()
    const declared = Number(request.headers["content-length"] ?? "0")
    // No length and no chunks: nothing to read.
    if (request.headers["transfer-encoding"] === undefined && !(declared > 0)) return app
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    const limit = bodyLimitOf(routes, request)
    if (declared > limit) {
      drain(incoming, limit)
      return tooLarge(limit)
    }
    // Each step over a large body (10 MiB for an OpenAPI text) takes tens of milliseconds: the event loop gets a turn
    // between them when one is due (Turns.ts).
    return Effect.flatMap(Effect.zipLeft(readBody(incoming, limit), giveTurn), (bytes) => {
      if (Option.isNone(bytes)) return tooLarge(limit)
      // An empty chunked body is no body; any other needs its content type.
      if (contentType === undefined && bytes.value.length > 0) return unsupportedType()
      // JSON is UTF-8: bytes that are not would be read as U+FFFD and stored changed, so they are refused.
      if (!isUtf8(bytes.value)) return respond(400, "body: is not valid UTF-8")
      const text = bytes.value.toString("utf8")
      return Effect.zipRight(
        giveTurn,
        Effect.suspend(() =>
          !form && nestedDeeperThan(text, MAX_JSON_DEPTH)
            ? respond(400, `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`)
            : Effect.zipRight(giveTurn, Effect.provideService(app, HttpServerRequest.HttpServerRequest, withBodyText(request, text)))
        )
      )
    })
  })
