import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Effect } from "effect"

/**
 * A page path may hold slashes, as GitBook's client sends it (`…/content/path/guides/install`):
 * they are encoded before routing so that the path reaches its endpoint as one parameter.
 */
const pagePathRoute = /^(\/v1\/spaces\/[^/?]+(?:\/change-requests\/[^/?]+)?\/content\/path\/)([^?]*\/[^?]*)(\?.*)?$/
export const encodePagePaths = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const match = pagePathRoute.exec(request.url)
    if (match === null) return app
    const url = `${match[1]}${(match[2] ?? "").replace(/\/+$/, "").replaceAll("/", "%2F")}${match[3] ?? ""}`
    return Effect.provideService(app, HttpServerRequest.HttpServerRequest, request.modify({ url }))
  })
