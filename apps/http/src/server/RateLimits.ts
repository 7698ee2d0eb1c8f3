import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Clock, Effect, Option } from "effect"
import { apiError } from "../shared/Errors.js"
import { forwardedAddress, makeRateLimiter, quotaHeaders, type RateLimitOptions, retryAfterSeconds } from "../shared/RateLimit.js"
import { bearerToken } from "../shared/Security.js"

/** Where visitors' browsers send insights events, with a budget of their own (decision 2). */
const trackingPath = /^\/v1\/orgs\/[^/]+\/sites\/[^/]+\/insights\/events$/

/** Probes of orchestrators and load balancers are never limited. */
const unlimitedPaths = new Set(["/healthz", "/readyz"])

/**
 * Rate limits (shared/RateLimit.ts): every answer, the health probes' aside, states the caller's quota in
 * X-RateLimit-Limit, -Remaining and -Reset; over it, the answer is a 429 with Retry-After, before the body is read.
 * Like the security headers, answers written inside the app get the headers (and a 401 its cost) from a
 * pre-response handler, those of the middleware in front here.
 */
export const rateLimited = (options: RateLimitOptions) => {
  const limiter = makeRateLimiter(options)
  return (app: HttpApp.Default): HttpApp.Default =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      if (unlimitedPaths.has(request.url.split("?")[0] ?? "")) return app
      const socketAddress = Option.getOrElse(request.remoteAddress, () => "unknown")
      const address = options.trustForwardedFor
        ? forwardedAddress(request.headers["x-forwarded-for"]) ?? socketAddress
        : socketAddress
      return Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const tracking = request.method === "POST" && trackingPath.test(request.url.split("?")[0] ?? "")
        const admission = limiter.admit({ token: bearerToken(request.headers["authorization"]), address, tracking }, now)
        if (!admission.allowed && admission.quota !== undefined) {
          const retryAfter = retryAfterSeconds(admission.quota, now)
          return Effect.succeed(
            HttpServerResponse.unsafeJson(apiError(429, `API rate limit exceeded. Please try again in ${retryAfter} seconds`), {
              status: 429,
              headers: { ...quotaHeaders(admission.quota), "retry-after": String(retryAfter) }
            })
          )
        }
        // The pre-response handler and the map may both see the answer: it is counted once.
        let settled: ReturnType<typeof limiter.settle> | null = null
        const stated = (response: HttpServerResponse.HttpServerResponse) =>
          Effect.map(Clock.currentTimeMillis, (then) => {
            if (settled === null) settled = limiter.settle(admission, response.status, then)
            return settled === undefined ? response : HttpServerResponse.setHeaders(response, quotaHeaders(settled))
          })
        return HttpApp.appendPreResponseHandler((_, response) => stated(response)).pipe(
          Effect.zipRight(app),
          Effect.flatMap(stated)
        )
      })
    })
}
