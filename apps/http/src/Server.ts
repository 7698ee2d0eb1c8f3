import { isUtf8 } from "node:buffer"
import type { IncomingMessage } from "node:http"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpMethod from "@effect/platform/HttpMethod"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import {
  DomainServices,
  Identity,
  ImportServices,
  Insights,
  InsightsDomainServices,
  IntegrationsDomainServices,
  OpenAPIDomainServices,
  OpenAPISpecs,
  Search,
  Spaces,
  SsoDomainServices,
  type StoragePorts,
  TranslationsDomainServices,
  GitSync,
  GitSyncDomainServices,
  ReaderDomainServices
} from "@octavo/domain"
import { Cause, Clock, Duration, Effect, Layer, Option, Predicate, Redacted, Schedule } from "effect"
import { OctavoApi } from "./Api.js"
import { docsRoute } from "./Docs.js"
import { CommentsHandlers, openCommentFields } from "./comments/index.js"
import { changeRequestFields, ContentHandlers } from "./content/index.js"
import { HealthHandlers } from "./health/index.js"
import { IdentityHandlers } from "./identity/index.js"
import { ImportsHandlers } from "./imports/index.js"
import { OrganizationsHandlers } from "./organizations/index.js"
import { SearchHandlers } from "./search/index.js"
import { apiError } from "./shared/Errors.js"
import { PublicUrl } from "./shared/Handlers.js"
import {
  DEFAULT_RATE_LIMITS,
  forwardedAddress,
  makeRateLimiter,
  quotaHeaders,
  type RateLimitOptions,
  retryAfterSeconds
} from "./shared/RateLimit.js"
import { Authentication, bearerToken, tokenRequired } from "./shared/Security.js"
import { publishedFields, SitesHandlers } from "./sites/index.js"
import { InsightsHandlers } from "./insights/index.js"
import { OpenAPIHandlers, specBodyRoutes } from "./openapi/index.js"
import { IntegrationsHandlers, largeBodyRoutes, SecretBoxLive } from "./integrations/index.js"
import { SpacesHandlers, SpaceWireFields } from "./spaces/index.js"
import { CertificatesLive, SsoHandlers } from "./sso/index.js"
import { TranslationsHandlers } from "./translations/index.js"
import { type GitCliOptions, GitRepositoriesLive } from "./gitsync/GitCli.js"
import { gitSyncFields, GitSyncHandlers, ServerInstanceLive } from "./gitsync/index.js"
import { AppRoutes, ReaderRoutes, SessionKey, sessionKeyOf } from "./reader/index.js"
import { UserAgentsLive } from "./insights/UserAgents.js"
import { VisitorTokensLive } from "./insights/VisitorTokens.js"
import { classifyAddress, FetchGuardLive, WebFetcherLive, type WebFetchOptions } from "./WebFetch.js"
import { WorkerPoolLive, type WorkerPoolOptions } from "./shared/WorkerPool.js"

/** Path parameters up to this length are matched and checked by their schemas; the request line is bounded anyway. */
const MAX_PATH_PARAMETER_LENGTH = 4096

/** Request bodies above this size are refused with 413. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024

const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Identity, (identity) =>
    Authentication.of({
      bearer: (token) =>
        identity.authenticate(Redacted.value(token)).pipe(
          Effect.mapError(() => tokenRequired)
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

/** JSON nested deeper than this is refused with 400 before it is decoded: deeper input only serves to exhaust the stack. */
export const MAX_JSON_DEPTH = 64

/** After refusing a body as too large, this much more of it (times the limit) is read and dropped so the client can read the 413; then the connection is cut. */
const DRAIN_FACTOR = 4

/** The body limit of a request: MAX_BODY_BYTES, or more on the few routes that take more (integrations' publish, OpenAPI specs). */
const bodyLimitOf = (request: HttpServerRequest.HttpServerRequest): number => {
  const path = request.url.split("?")[0] ?? ""
  return [...largeBodyRoutes, ...specBodyRoutes].find((route) => route.method === request.method && route.path.test(path))?.maxBytes ??
    MAX_BODY_BYTES
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
const readJsonBody = (app: HttpApp.Default): HttpApp.Default =>
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
    const limit = bodyLimitOf(request)
    if (declared > limit) {
      drain(incoming, limit)
      return tooLarge(limit)
    }
    return Effect.flatMap(readBody(incoming, limit), (bytes) => {
      if (Option.isNone(bytes)) return tooLarge(limit)
      // An empty chunked body is no body; any other needs its content type.
      if (contentType === undefined && bytes.value.length > 0) return unsupportedType()
      // JSON is UTF-8: bytes that are not would be read as U+FFFD and stored changed, so they are refused.
      if (!isUtf8(bytes.value)) return respond(400, "body: is not valid UTF-8")
      const text = bytes.value.toString("utf8")
      if (!form && nestedDeeperThan(text, MAX_JSON_DEPTH)) return respond(400, `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`)
      return Effect.provideService(app, HttpServerRequest.HttpServerRequest, withBodyText(request, text))
    })
  })

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
const securityHeaders = (app: HttpApp.Default): HttpApp.Default =>
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
const rateLimited = (options: RateLimitOptions) => {
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
    ImportsHandlers,
    CommentsHandlers,
    SitesHandlers,
    InsightsHandlers,
    IntegrationsHandlers,
    SsoHandlers,
    TranslationsHandlers,
    OpenAPIHandlers,
    GitSyncHandlers
  ]),
  Layer.provide(AuthenticationLive),
  // What later contexts show on spaces, each from its own folder.
  Layer.provide(Layer.succeed(SpaceWireFields, [changeRequestFields, openCommentFields, publishedFields, gitSyncFields]))
)

export interface ServerOptions {
  readonly publicUrl: string
  /** When set, the instance administrator authenticates with this token. */
  readonly adminToken?: string | undefined
  /** Outbound fetches of imports: which private networks they may reach, and their timeout. */
  readonly fetch?: Partial<WebFetchOptions> | undefined
  /** Requests per window by token and by address (0: no limit); DEFAULT_RATE_LIMITS for what is not given. */
  readonly rateLimit?: Partial<RateLimitOptions> | undefined
  /** Seals integrations' secrets (OCTAVO_SECRET_KEY); without one, publishing secrets is refused with 412. */
  readonly secretKey?: Redacted.Redacted<Uint8Array> | undefined
  /** Git Sync's git: the binary, `file://` root (OCTAVO_GIT_FILE_ROOT); it reaches the networks `fetch.allow` opens. */
  readonly git?: Partial<GitCliOptions> | undefined
  /** This server's stable name among those sharing the storage (`host:port`; default the host name): Git Sync recovers only its own operations. */
  readonly instance?: string | undefined
  /** Where large pages and specs are parsed: worker threads, their number, time limit and heap (shared/WorkerPool.ts). */
  readonly parse?: Partial<WorkerPoolOptions> | undefined
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
 * Insights retention: events older than 400 days are removed at start and then daily (whole
 * monthly partitions dropped on PostgreSQL). Removal is idempotent, so several servers may run it.
 */
const PurgeExpiredEvents = Layer.scopedDiscard(
  Effect.flatMap(Insights, (insights) =>
    insights.purgeExpired.pipe(
      Effect.catchAllCause((cause) => Effect.logError("Purging expired insights events failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.days(1))),
      Effect.forkScoped
    ))
)

/** Git Sync (conventions-2.md §8): operations running when the server stopped lost their credentials; at start they fail. */
const RecoverGitSync = Layer.effectDiscard(
  Effect.flatMap(GitSync, (gitSync) => gitSync.recover).pipe(
    Effect.catchAllCause((cause) => Effect.logError("Recovering Git Sync operations failed", cause))
  )
)

/** How many URL specs one server fetches and processes at once. */
const OPENAPI_WORKERS = 4

/**
 * OpenAPI specs from a URL (conventions-2.md §5): workers take the jobs (several servers share them,
 * each job taken once), when a URL is submitted on this server and otherwise every second.
 */
const ProcessOpenAPISpecs = Layer.scopedDiscard(
  Effect.flatMap(OpenAPISpecs, (specs) => {
    // The pause is wall-clock time: a test clock moved by days would otherwise run a poll for every second of them.
    const pause = Effect.sleep(Duration.seconds(1)).pipe(Effect.withClock(Clock.make()))
    return Effect.forEach(Array.from({ length: OPENAPI_WORKERS }), () =>
      specs.processPending.pipe(
        Effect.catchAllCause((cause) => Effect.logError("Processing OpenAPI specs failed", cause)),
        Effect.zipRight(Effect.race(specs.submitted, pause)),
        Effect.forever,
        Effect.forkScoped
      ), { discard: true })
  })
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
  // Insights read user agents through a library, outside the domain.
  // SAML certificates are read by Node's crypto, outside the domain.
  // Integrations' secrets are sealed by Node's crypto, outside the domain.
  // The reader records what visitors read through insights.
  const domain = ReaderDomainServices.pipe(Layer.provideMerge(Layer.mergeAll(
    ImportServices,
    InsightsDomainServices,
    SsoDomainServices,
    TranslationsDomainServices,
    IntegrationsDomainServices,
    OpenAPIDomainServices,
    GitSyncDomainServices
  ))).pipe(
    Layer.provideMerge(DomainServices),
    Layer.provideMerge(
      Layer.mergeAll(
        storage,
        WebFetcherLive(options.fetch),
        FetchGuardLive(options.fetch),
        UserAgentsLive,
        VisitorTokensLive,
        CertificatesLive,
        SecretBoxLive(options.secretKey),
        GitRepositoriesLive({ allow: options.fetch?.allow ?? [], classify: classifyAddress, ...options.git }),
        ServerInstanceLive(options.instance),
        WorkerPoolLive(options.parse)
      )
    )
  )
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimit }
  return HttpApiBuilder.serve((app) =>
    securityHeaders(
      HttpMiddleware.logger(
        rateLimited(limits)(HttpIncomingMessage.withMaxBodySize(encodePagePaths(readJsonBody(app)), Option.some(MAX_BODY_BYTES)))
      )
    )
  ).pipe(
    Layer.provide(docsRoute("/docs")),
    Layer.provide(ReaderRoutes),
    Layer.provide(AppRoutes),
    Layer.provide(Layer.succeed(SessionKey, sessionKeyOf(options.secretKey))),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(ErrorBodies),
    Layer.provide(ApiLive),
    Layer.provide(
      Layer.mergeAll(
        bootstrapAdmin(options.adminToken),
        PurgeExpiredSpaces,
        PurgeExpiredEvents,
        ReindexStaleSpaces,
        ProcessOpenAPISpecs,
        RecoverGitSync
      )
    ),
    Layer.provide(domain),
    Layer.provide(Layer.succeed(PublicUrl, options.publicUrl.replace(/\/+$/, ""))),
    // The router would not match a path parameter over 100 characters (404): longer names reach their schemas' 400.
    Layer.provide(HttpRouter.setRouterConfig({ maxParamLength: MAX_PATH_PARAMETER_LENGTH }))
  )
}
