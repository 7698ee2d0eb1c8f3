import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpRouter from "@effect/platform/HttpRouter"
import {
  CertificatesLive,
  classifyAddress,
  FetchGuardLive,
  type GitCliOptions,
  GitRepositoriesLive,
  SecretBoxLive,
  UserAgentsLive,
  VisitorTokensLive,
  WebFetcherLive,
  type WebFetchOptions,
  WorkerPoolLive,
  EventLoopTurnsLive,
  type WorkerPoolOptions
} from "@octavo/adapters-node"
import { DomainServices, type StoragePorts } from "@octavo/domain"
import { Layer, Option, Redacted } from "effect"
import { OctavoApi } from "./Api.js"
import { contextBodyLimits, contextHandlers, contextJobs, contextSpaceFields } from "./Contexts.js"
import { docsRoute } from "./Docs.js"
import { PublicUrl } from "./shared/Handlers.js"
import { DEFAULT_RATE_LIMITS, type RateLimitOptions } from "./shared/RateLimit.js"
import { SpaceWireFields } from "./spaces/index.js"
import { ServerInstanceLive } from "./gitsync/index.js"
import { AppRoutes, ReaderRoutes, SessionKey, sessionKeyOf } from "./reader/index.js"
import { AuthenticationLive } from "./server/Authentication.js"
import { bootstrapAdmin } from "./server/BackgroundJobs.js"
import { readJsonBody } from "./server/Body.js"
import { ErrorBodies } from "./server/ErrorBodies.js"
import { MAX_BODY_BYTES, MAX_PATH_PARAMETER_LENGTH } from "./server/Limits.js"
import { encodePagePaths } from "./server/PagePaths.js"
import { rateLimited } from "./server/RateLimits.js"
import { securityHeaders } from "./server/SecurityHeaders.js"

// The server by concern in server/: what a request may hold (Limits), its body (Body), error bodies, security
// headers, rate limits, page paths, authentication and the background jobs. Here, their composition.
export { MAX_BODY_BYTES, MAX_JSON_DEPTH } from "./server/Limits.js"

/** The handlers of the whole API: every context's (Contexts.ts), with what the contexts add to spaces on the wire. */
const ApiLive = HttpApiBuilder.api(OctavoApi).pipe(
  Layer.provide(contextHandlers),
  Layer.provide(AuthenticationLive),
  Layer.provide(Layer.succeed(SpaceWireFields, contextSpaceFields))
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
  /** Where large pages and specs are parsed: worker threads, their number, time limit and heap (adapters-node, shared/WorkerPool.ts). */
  readonly parse?: Partial<WorkerPoolOptions> | undefined
}

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
  const domain = DomainServices.pipe(
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
        WorkerPoolLive(options.parse),
        EventLoopTurnsLive
      )
    )
  )
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimit }
  return HttpApiBuilder.serve((app) =>
    securityHeaders(
      HttpMiddleware.logger(
        rateLimited(limits)(
          HttpIncomingMessage.withMaxBodySize(encodePagePaths(readJsonBody(contextBodyLimits)(app)), Option.some(MAX_BODY_BYTES))
        )
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
      Layer.merge(bootstrapAdmin(options.adminToken), contextJobs)
    ),
    Layer.provide(domain),
    Layer.provide(Layer.succeed(PublicUrl, options.publicUrl.replace(/\/+$/, ""))),
    // The router would not match a path parameter over 100 characters (404): longer names reach their schemas' 400.
    Layer.provide(HttpRouter.setRouterConfig({ maxParamLength: MAX_PATH_PARAMETER_LENGTH }))
  )
}
