import { hostname } from "node:os"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { integrationsSecretKey } from "@octavo/adapters-node"
import { Config, Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { AppConfig, storageChoice } from "./Config.js"
import { keepWasmBaseline, tuneHeap } from "./Heap.js"
import { JsonLinesLive } from "./Log.js"
import * as NodeServer from "./NodeServer.js"
import { makeHttpApp } from "./Server.js"
import { storageLayer } from "./Storage.js"

const Main = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  const choice = storageChoice(config)
  const publicUrl = Option.getOrElse(config.publicUrl, () => `http://localhost:${config.port}`)
  tuneHeap(config.heapGrowingPercent)
  if (choice._tag === "pglite" && !config.pgliteOptimize) keepWasmBaseline()
  const secretKey = yield* integrationsSecretKey(config.secretKey, choice)
  yield* Effect.logInfo("Starting Octavo").pipe(
    Effect.annotateLogs({
      storage: choice._tag,
      port: config.port,
      publicUrl,
      ...(choice._tag === "pglite" ? { dataDir: choice.dataDir } : {})
    })
  )
  return makeHttpApp(storageLayer(choice), {
    publicUrl,
    adminToken: Option.getOrUndefined(Option.map(config.adminToken, Redacted.value)),
    secretKey,
    fetch: { allow: config.importAllow, timeoutMs: config.importTimeoutMs },
    git: { fileRoot: Option.getOrUndefined(config.gitFileRoot) },
    instance: `${hostname()}:${config.port}`,
    parse: {
      ...Option.match(config.parseWorkers, { onNone: () => ({}), onSome: (workers) => ({ workers }) }),
      timeoutMs: config.parseTimeoutMs,
      heapMb: config.parseWorkerHeapMb
    },
    rateLimit: {
      perToken: config.rateLimitPerMinute,
      perAddress: config.rateLimitAnonymousPerMinute,
      trackingPerAddress: config.rateLimitAnonymousTrackingPerMinute,
      trustForwardedFor: config.rateLimitTrustForwardedFor
    }
  }).pipe(Layer.provide(NodeServer.layer(
    () =>
      NodeServer.makeNodeServer({
        requestTimeoutMs: config.requestTimeoutMs,
        keepAliveTimeoutMs: config.keepAliveTimeoutMs,
        maxConnectionsPerAddress: config.maxConnectionsPerAddress
      }),
    { port: config.port },
    config.shutdownGraceMs
  )))
}))

// SIGTERM and SIGINT interrupt the main fiber: the server stops listening, closes its idle connections, finishes the
// requests in flight (within OCTAVO_SHUTDOWN_GRACE_MS), then the storage closes and the process exits.
// OCTAVO_LOG_LEVEL: `info` writes a line per request; `warning` keeps failures only; `none` writes nothing.
const logLevels = { debug: LogLevel.Debug, info: LogLevel.Info, warning: LogLevel.Warning, error: LogLevel.Error, none: LogLevel.None }
const logLevel = Config.literal("debug", "info", "warning", "error", "none")("OCTAVO_LOG_LEVEL").pipe(
  Config.withDefault("info"),
  Config.map((name) => logLevels[name])
)

Effect.flatMap(logLevel, (level) => Layer.launch(Main).pipe(Logger.withMinimumLogLevel(level))).pipe(
  Effect.provide(JsonLinesLive),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
