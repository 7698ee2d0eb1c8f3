import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { StoredString } from "@octavo/domain"
import { Context, Effect, Schema } from "effect"

const storable = Schema.is(StoredString)

/** The longest segment a browser path may have: longer ones name nothing Octavo stores. */
const MAX_SEGMENT_LENGTH = 512

/**
 * A browser path's segments, decoded; undefined when one cannot be decoded, or holds what no id, path
 * or name of Octavo can (NUL, ill-formed UTF-16: the strings storage refuses), or is over 512 characters.
 * Such a path names nothing, and it never reaches storage.
 */
export const segmentsOf = (pathname: string): Array<string> | undefined => {
  try {
    const segments = pathname.split("/").filter((s) => s !== "").map((s) => decodeURIComponent(s))
    return segments.every((s) => s.length <= MAX_SEGMENT_LENGTH && storable(s)) ? segments : undefined
  } catch {
    return undefined
  }
}

/** The path the browser asked for: its URL as sent, and its segments decoded (segmentsOf). */
export class BrowserPath extends Context.Tag("@octavo/http/reader/BrowserPath")<BrowserPath, {
  readonly url: URL
  readonly segments: ReadonlyArray<string>
}>() {}

/**
 * A browser's paths routed by a router of their own: the path is decoded and checked once (segmentsOf), then
 * each segment escaped again, so that the router's parameters are exactly the decoded segments and its
 * static parts match case and all. A path that cannot be decoded gets `invalid`, one no route takes `unrouted`.
 */
export const routeDecoded = <E, R, EI, RI, EU, RU>(
  router: HttpRouter.HttpRouter<E, R>,
  answers: {
    readonly invalid: Effect.Effect<HttpServerResponse.HttpServerResponse, EI, RI>
    readonly unrouted: Effect.Effect<HttpServerResponse.HttpServerResponse, EU, RU>
  }
) =>
  Effect.map(
    HttpRouter.withRouterConfig(HttpRouter.toHttpApp(router), {
      caseSensitive: true,
      maxParamLength: MAX_SEGMENT_LENGTH
    }),
    (app) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const url = new URL(request.url, "http://localhost")
        const segments = segmentsOf(url.pathname)
        if (segments === undefined) return yield* answers.invalid
        const routed = request.modify({ url: `/${segments.map(encodeURIComponent).join("/")}${url.search}` })
        return yield* app.pipe(
          Effect.catchTag("RouteNotFound", () => answers.unrouted),
          Effect.provideService(HttpServerRequest.HttpServerRequest, routed),
          Effect.provideService(BrowserPath, { url, segments })
        )
      })
  )

/** The route's parameters of these names (the wildcard's is "*"), as the router decoded them; "" for one left out. */
export const pathParams = <const Names extends ReadonlyArray<string>>(...names: Names) =>
  Effect.map(
    HttpRouter.params,
    (params) => Object.fromEntries(names.map((name) => [name, params[name] ?? ""])) as { readonly [K in Names[number]]: string }
  )
