import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect, Layer } from "effect"

/**
 * The reference page as HttpApiScalar's layer makes it, read on the first request for it: the layer's module holds
 * Scalar's viewer (3.4 MB of script, kept with the page around it for the life of the process), so it is imported
 * then, and its layer built on a router of its own whose one route is the page. The viewer runs from the page itself
 * (fonts from Scalar's servers would be refused by the page's policy, so it uses the system's).
 */
const referencePage = (path: `/${string}`, api: HttpApi.Api["Type"]) =>
  Effect.gen(function*() {
    const HttpApiScalar = yield* Effect.promise(() => import("@effect/platform/HttpApiScalar"))
    const reference = HttpApiScalar.layer({ path, scalar: { withDefaultFonts: false } }).pipe(
      Layer.provideMerge(HttpApiBuilder.Router.Live),
      Layer.provide(Layer.succeed(HttpApi.Api, api))
    )
    return yield* Effect.provide(HttpApiBuilder.Router.router, reference)
  })

/** The API reference at `path`: the served OpenAPI document in Scalar's viewer. */
export const docsRoute = (path: `/${string}`) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const api = yield* HttpApi.Api
      const page = yield* Effect.cached(referencePage(path, api))
      yield* router.get(path, Effect.flatten(page))
    })
  )
