import {
  type HttpApp,
  HttpApiBuilder,
  HttpApiScalar,
  HttpIncomingMessage,
  HttpMiddleware,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { DomainServices, Identity, ImportServices, Search, Spaces, type StoragePorts } from "@octavo/domain"
import { Cause, Duration, Effect, Layer, Option, Predicate, Redacted, Schedule } from "effect"
import { OctavoApi } from "./Api.js"
import { ContentHandlers } from "./content/index.js"
import { HealthHandlers } from "./health/index.js"
import { IdentityHandlers } from "./identity/index.js"
import { ImportsHandlers } from "./imports/index.js"
import { OrganizationsHandlers } from "./organizations/index.js"
import { SearchHandlers } from "./search/index.js"
import { apiError } from "./shared/Errors.js"
import { PublicUrl } from "./shared/Handlers.js"
import { Authentication } from "./shared/Security.js"
import { SpacesHandlers } from "./spaces/index.js"
import { WebFetcherLive, type WebFetchOptions } from "./WebFetch.js"

/** Request bodies above this size are refused with 413. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024

const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Identity, (identity) =>
    Authentication.of({
      bearer: (token) =>
        identity.authenticate(Redacted.value(token)).pipe(
          Effect.mapError(() => apiError(401, "A valid bearer token is required: send Authorization: Bearer <token>"))
        )
    }))
)

const hasTag = (error: unknown, tag: string): boolean => Predicate.isTagged(error, tag)

const decodeMessage = (error: unknown): string => {
  const issues = (error as { issues?: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }).issues ?? []
  const seen = new Set<string>()
  const described: Array<string> = []
  for (const issue of issues) {
    const path = issue.path.map(String).join(".")
    // An optional field's "Expected undefined" adds nothing to the rule it broke; one message a field.
    if (seen.has(path) || issue.message.startsWith("Expected undefined")) continue
    seen.add(path)
    described.push(path === "" ? issue.message : `${path}: ${issue.message}`)
  }
  return described.length > 0 ? described.join("; ") : "The request is invalid"
}

/**
 * Gives every failure the API's error body: input that does not decode (400), a body too
 * large (413), a route that does not exist (404), and defects (500, cause logged, not shown).
 */
const respond = (code: number, message: string) => Effect.succeed(HttpServerResponse.unsafeJson(apiError(code, message), { status: code }))

const isBodyTooLarge = (error: unknown): boolean =>
  /too large|exceed/i.test(String((error as { description?: unknown }).description ?? "")) ||
  /too large|exceed/i.test(String((error as { cause?: { message?: unknown } }).cause?.message ?? ""))

/**
 * Gives every failure the API's error body: input that does not decode (400), a body too
 * large (413), a route that does not exist (404), and defects (500, cause logged, not shown).
 * The API's own errors pass through to its encoder.
 */
const ErrorBodies = HttpApiBuilder.middleware((app) =>
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

/** Refuses a declared body over the limit before reading it; a longer undeclared body fails while read. */
const limitBodySize = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const declared = Number(request.headers["content-length"] ?? "0")
    return declared > MAX_BODY_BYTES
      ? respond(413, `The body is over the limit of ${MAX_BODY_BYTES} bytes`)
      : HttpIncomingMessage.withMaxBodySize(app, Option.some(MAX_BODY_BYTES))
  })

/**
 * A page path may hold slashes, as GitBook's client sends it (`…/content/path/guides/install`):
 * they are encoded before routing so that the path reaches its endpoint as one parameter.
 */
const pagePathRoute = /^(\/v1\/spaces\/[^/?]+(?:\/change-requests\/[^/?]+)?\/content\/path\/)([^?]*\/[^?]*)(\?.*)?$/
const encodePagePaths = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const match = pagePathRoute.exec(request.url)
    if (match === null) return app
    const url = `${match[1]}${(match[2] ?? "").replace(/\/+$/, "").replaceAll("/", "%2F")}${match[3] ?? ""}`
    return Effect.provideService(app, HttpServerRequest.HttpServerRequest, request.modify({ url }))
  })

/** The handlers of the whole API: one line per context, as in `OctavoApi`. */
const ApiLive = HttpApiBuilder.api(OctavoApi).pipe(
  Layer.provide([
    HealthHandlers,
    IdentityHandlers,
    OrganizationsHandlers,
    SpacesHandlers,
    ContentHandlers,
    SearchHandlers,
    ImportsHandlers
  ]),
  Layer.provide(AuthenticationLive)
)

export interface ServerOptions {
  readonly publicUrl: string
  /** When set, the instance administrator authenticates with this token. */
  readonly adminToken?: string | undefined
  /** Outbound fetches of imports: which private networks they may reach, and their timeout. */
  readonly fetch?: Partial<WebFetchOptions> | undefined
}

const bootstrapAdmin = (adminToken: string | undefined) =>
  Layer.effectDiscard(
    adminToken === undefined || adminToken === ""
      ? Effect.void
      : Effect.flatMap(Identity, (identity) => identity.bootstrapInstanceAdmin(adminToken)).pipe(
        Effect.tap((admin) => Effect.logInfo("Instance administrator ready").pipe(Effect.annotateLogs({ userId: admin.id })))
      )
  )

/**
 * Space lifecycle: spaces soft-deleted more than 7 days ago are removed for good, at start and
 * then hourly. Removal is idempotent, so several servers may run it at once.
 */
const PurgeExpiredSpaces = Layer.scopedDiscard(
  Effect.flatMap(Spaces, (content) =>
    content.purgeExpired.pipe(
      Effect.tap((purged) => purged > 0 ? Effect.logInfo("Purged expired spaces").pipe(Effect.annotateLogs({ purged })) : Effect.void),
      Effect.catchAllCause((cause) => Effect.logError("Purging expired spaces failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.hours(1))),
      Effect.forkScoped
    ))
)

/**
 * Search follows each space's active revision; at start, spaces whose documents lag behind (content
 * from before search existed) are reindexed in the background.
 */
const ReindexStaleSpaces = Layer.scopedDiscard(
  Effect.flatMap(Search, (search) =>
    search.reindexStale.pipe(
      Effect.tap((reindexed) =>
        reindexed > 0 ? Effect.logInfo("Reindexed spaces for search").pipe(Effect.annotateLogs({ reindexed })) : Effect.void
      ),
      Effect.catchAllCause((cause) => Effect.logError("Reindexing spaces for search failed", cause)),
      Effect.forkScoped
    ))
)

/**
 * The whole HTTP application over a storage: the API, its OpenAPI document at /openapi.json and
 * the reference page at /docs. It needs an HttpServer (Node's in main, a test server in tests).
 */
export const makeHttpApp = (storage: Layer.Layer<StoragePorts, unknown>, options: ServerOptions) => {
  // Imports and files inserted by URL fetch through the same guarded fetcher.
  const domain = ImportServices.pipe(
    Layer.provideMerge(DomainServices),
    Layer.provideMerge(Layer.merge(storage, WebFetcherLive(options.fetch)))
  )
  return HttpApiBuilder.serve((app) => HttpMiddleware.logger(limitBodySize(encodePagePaths(app)))).pipe(
    Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(ErrorBodies),
    Layer.provide(ApiLive),
    Layer.provide(Layer.mergeAll(bootstrapAdmin(options.adminToken), PurgeExpiredSpaces, ReindexStaleSpaces)),
    Layer.provide(domain),
    Layer.provide(Layer.succeed(PublicUrl, options.publicUrl.replace(/\/+$/, "")))
  )
}
