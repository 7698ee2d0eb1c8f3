import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Cause, Effect, Option, Predicate } from "effect"
import { apiError } from "../shared/Errors.js"
import { MAX_BODY_BYTES } from "./Limits.js"

const hasTag = (error: unknown, tag: string): boolean => Predicate.isTagged(error, tag)

interface Issue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const decodeMessage = (error: unknown): string => {
  const all = (error as { issues?: ReadonlyArray<Issue> }).issues ?? []
  // An optional or nullable field's "Expected undefined" or "Expected null" adds nothing to the rule it broke, nor
  // does a union's "Expected string" where one of its members broke a rule deeper inside (`values.0.page: …`).
  const absent = (issue: Issue) => /^Expected (undefined|null)\b/.test(issue.message)
  const within = (outer: Issue, inner: Issue) =>
    inner.path.length > outer.path.length && outer.path.every((key, i) => String(key) === String(inner.path[i]))
  const saysLess = (issue: Issue) => absent(issue) || (/^Expected /.test(issue.message) && all.some((other) => within(issue, other)))
  const issues = all.some((issue) => !saysLess(issue)) ? all.filter((issue) => !saysLess(issue)) : all
  const seen = new Set<string>()
  const described: Array<string> = []
  for (const issue of issues) {
    const path = issue.path.map(String).join(".")
    // One message a field.
    if (seen.has(path)) continue
    seen.add(path)
    described.push(path === "" ? issue.message : `${path}: ${issue.message}`)
  }
  return described.length > 0 ? described.join("; ") : "The request is invalid"
}

/** An answer with the API's error body, `{ "error": { "code", "message" } }`. */
export const respond = (code: number, message: string) =>
  Effect.succeed(HttpServerResponse.unsafeJson(apiError(code, message), { status: code }))

const isBodyTooLarge = (error: unknown): boolean =>
  /too large|exceed/i.test(String((error as { description?: unknown }).description ?? "")) ||
  /too large|exceed/i.test(String((error as { cause?: { message?: unknown } }).cause?.message ?? ""))

/**
 * Gives every failure the API's error body: input that does not decode (400), a body too
 * large (413), a route that does not exist (404), and defects (500, cause logged, not shown).
 * The API's own errors pass through to its encoder.
 */
export const ErrorBodies = HttpApiBuilder.middleware((app) =>
  app.pipe(
    Effect.catchAllCause((cause): Effect.Effect<HttpServerResponse.HttpServerResponse, never> => {
      if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
      // Body decoding failures arrive as defects, the others as failures: look at whichever it is.
      const error: unknown = Cause.squash(cause)
      if (hasTag(error, "HttpApiDecodeError")) return respond(400, decodeMessage(error))
      if (hasTag(error, "RouteNotFound")) return respond(404, "No such endpoint")
      if (hasTag(error, "RequestError")) {
        return isBodyTooLarge(error)
          ? respond(413, `The body is over the limit of ${MAX_BODY_BYTES} bytes`)
          : respond(400, "body: must be valid JSON")
      }
      // The API's own errors are encoded by HttpApi; anything else is a fault of the server.
      if (Option.isSome(Cause.failureOption(cause)) && !hasTag(error, "SqlError")) return Effect.failCause(cause)
      return Effect.logError("Request failed", cause).pipe(
        Effect.zipRight(respond(500, "The server failed to answer; the cause is in its log"))
      )
    })
  )
)
