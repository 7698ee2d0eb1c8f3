import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"

/** A request id the client sent is kept when it is short and plain; otherwise one is made. */
const saneRequestId = /^[\w.:@+=/-]{1,128}$/

/**
 * The reference page runs Scalar's inline scripts and styles and compiles its WebAssembly (no eval otherwise);
 * it needs nothing from elsewhere.
 */
const docsPolicy = [
  "default-src 'none'",
  "script-src 'unsafe-inline' 'wasm-unsafe-eval'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

/**
 * Every answer carries `X-Content-Type-Options: nosniff` and the request id in `X-Request-Id` (also on the
 * request's log lines), and no `X-Powered-By` (nothing sets it); the reference page also a Content-Security-Policy.
 * Answers written inside the app get them from a pre-response handler, those of the middleware in front (413, 415) here.
 */
export const securityHeaders = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const incoming = request.headers["x-request-id"]
    const requestId = incoming !== undefined && saneRequestId.test(incoming) ? incoming : crypto.randomUUID()
    const isDocs = request.url.split("?")[0] === "/docs"
    const secure = (response: HttpServerResponse.HttpServerResponse) =>
      response.pipe(
        HttpServerResponse.setHeaders({ "x-content-type-options": "nosniff", "x-request-id": requestId }),
        (secured) => isDocs ? HttpServerResponse.setHeader(secured, "content-security-policy", docsPolicy) : secured
      )
    return HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(secure(response))).pipe(
      Effect.zipRight(app),
      Effect.map(secure),
      Effect.annotateLogs({ requestId })
    )
  })
