import { DEFAULT_WORKER_POOL, decodeSecretKey, parseNetworkClasses } from "@octavo/adapters-node"
import { Config, ConfigError, Either, Option, Redacted } from "effect"

/** A number of milliseconds Node's timers can hold: 1 ms to about 24 days. */
const milliseconds = (name: string, byDefault: number) =>
  Config.integer(name).pipe(
    Config.withDefault(byDefault),
    Config.mapOrFail((ms) =>
      ms >= 1 && ms <= 2_147_483_647
        ? Either.right(ms)
        : Either.left(ConfigError.InvalidData([name], "must be a number of milliseconds from 1 to 2147483647"))
    )
  )

/** A rate limit in requests per minute: a whole number, 0 for no limit. */
const perMinute = (name: string, byDefault: number) =>
  Config.integer(name).pipe(
    Config.withDefault(byDefault),
    Config.mapOrFail((count) =>
      count >= 0
        ? Either.right(count)
        : Either.left(ConfigError.InvalidData([name], "must be a whole number of requests per minute, 0 for no limit"))
    )
  )

/** The environment every start command honours (conventions.md, "Environment"). */
export const AppConfig = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(8080)),
  publicUrl: Config.option(Config.string("OCTAVO_PUBLIC_URL")),
  databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
  dataDir: Config.string("OCTAVO_DATA_DIR").pipe(Config.withDefault("./.octavo")),
  storage: Config.option(Config.literal("memory")("OCTAVO_STORAGE")),
  adminToken: Config.option(Config.redacted("OCTAVO_ADMIN_TOKEN")),
  /** Private networks imports may fetch from: a comma-separated list of loopback, private, link-local. */
  importAllow: Config.string("OCTAVO_IMPORT_ALLOW").pipe(
    Config.withDefault(""),
    Config.mapOrFail((text) =>
      Either.mapLeft(parseNetworkClasses(text), (message) => ConfigError.InvalidData(["OCTAVO_IMPORT_ALLOW"], message))
    )
  ),
  /** Git Sync: `file://` repositories are allowed only under this directory (conventions-2.md §8); unset, never. */
  gitFileRoot: Config.option(Config.string("OCTAVO_GIT_FILE_ROOT")),
  /** One fetch's time limit: 1 ms to about 24 days (Node's timers go no further). */
  importTimeoutMs: milliseconds("OCTAVO_IMPORT_TIMEOUT_MS", 10_000),
  /** How long a stopping server waits for requests in flight before it closes their connections and the storage. */
  shutdownGraceMs: milliseconds("OCTAVO_SHUTDOWN_GRACE_MS", 10_000),
  /** How long a client may take to send a request's headers and body, from its first byte. */
  requestTimeoutMs: milliseconds("OCTAVO_REQUEST_TIMEOUT_MS", 30_000),
  /**
   * How long an idle kept-alive connection stays open: longer than a load balancer's own idle timeout (60 s on the
   * common ones), so that the balancer, not the server, closes an idle connection and never sends a request into one
   * the server is closing.
   */
  keepAliveTimeoutMs: milliseconds("OCTAVO_KEEP_ALIVE_TIMEOUT_MS", 65_000),
  /** Connections one client address may hold at once; 0 for no cap (behind a proxy every client has its address). */
  maxConnectionsPerAddress: Config.integer("OCTAVO_MAX_CONNECTIONS_PER_ADDRESS").pipe(
    Config.withDefault(64),
    Config.mapOrFail((count) =>
      count >= 0
        ? Either.right(count)
        : Either.left(ConfigError.InvalidData(["OCTAVO_MAX_CONNECTIONS_PER_ADDRESS"], "must be a whole number, 0 for no cap"))
    )
  ),
  /** Requests one bearer token may make per minute, on this server process. */
  rateLimitPerMinute: perMinute("OCTAVO_RATE_LIMIT_PER_MINUTE", 1_200),
  /** Requests one address may make per minute without a token; an answer 401 counts as 10. */
  rateLimitAnonymousPerMinute: perMinute("OCTAVO_RATE_LIMIT_ANONYMOUS_PER_MINUTE", 300),
  /** Batches of events one address may track per minute without a token (decision 2). */
  rateLimitAnonymousTrackingPerMinute: perMinute("OCTAVO_RATE_LIMIT_ANONYMOUS_TRACKING_PER_MINUTE", 60),
  /** How far V8 lets its heap grow past the live data before collecting, in percent; 0 keeps V8's own factor (1.1 to 4). */
  heapGrowingPercent: Config.integer("OCTAVO_HEAP_GROWING_PERCENT").pipe(
    Config.withDefault(15),
    Config.mapOrFail((percent) =>
      percent >= 0 && percent <= 300
        ? Either.right(percent)
        : Either.left(ConfigError.InvalidData(["OCTAVO_HEAP_GROWING_PERCENT"], "must be a whole number from 0 to 300"))
    )
  ),
  /**
   * Lets V8 recompile the embedded PostgreSQL's hot WebAssembly with its optimizing compiler: CPU-heavy queries run
   * about a third faster, for 40 to 60 MiB more resident. Off, it stays on the baseline compiler.
   */
  pgliteOptimize: Config.boolean("OCTAVO_PGLITE_OPTIMIZE").pipe(Config.withDefault(false)),
  /**
   * With `DATABASE_URL`, each connection keeps its statements prepared. `false` for a pooler that cannot follow
   * prepared statements across its server connections (PgBouncer before 1.21 in transaction mode).
   */
  pgPreparedStatements: Config.boolean("OCTAVO_PG_PREPARED_STATEMENTS").pipe(Config.withDefault(true)),
  /** Behind a proxy: rate limits take the client's address from the last entry of X-Forwarded-For. */
  rateLimitTrustForwardedFor: Config.boolean("OCTAVO_RATE_LIMIT_TRUST_FORWARDED_FOR").pipe(Config.withDefault(false)),
  /** Worker threads that parse large pages and specs (issue 13): 0 parses in the server's thread; unset, one per core but one. */
  parseWorkers: Config.option(
    Config.integer("OCTAVO_PARSE_WORKERS").pipe(
      Config.mapOrFail((count) =>
        count >= 0 && count <= 64
          ? Either.right(count)
          : Either.left(ConfigError.InvalidData(["OCTAVO_PARSE_WORKERS"], "must be a whole number from 0 to 64"))
      )
    )
  ),
  /** How long one parse may take in a worker; past it, the input is refused with 400 and the worker replaced. */
  parseTimeoutMs: milliseconds("OCTAVO_PARSE_TIMEOUT_MS", DEFAULT_WORKER_POOL.timeoutMs),
  /** A parse worker's heap limit in MiB (input that needs more is refused with 400); 0 leaves V8's own. */
  parseWorkerHeapMb: Config.integer("OCTAVO_PARSE_WORKER_HEAP_MB").pipe(
    Config.withDefault(DEFAULT_WORKER_POOL.heapMb),
    Config.mapOrFail((mb) =>
      mb === 0 || (mb >= 32 && mb <= 65_536)
        ? Either.right(mb)
        : Either.left(ConfigError.InvalidData(["OCTAVO_PARSE_WORKER_HEAP_MB"], "must be 0 (V8's own) or a number of MiB from 32 to 65536"))
    )
  ),
  /** Seals integrations' secrets (decision 8): 32 bytes in base64. Absent on the embedded default, one is made in the data directory. */
  secretKey: Config.option(
    Config.redacted("OCTAVO_SECRET_KEY").pipe(
      Config.mapOrFail((text) =>
        Either.match(decodeSecretKey(Redacted.value(text)), {
          onLeft: (rule) => Either.left(ConfigError.InvalidData(["OCTAVO_SECRET_KEY"], rule)),
          onRight: (key) => Either.right(Redacted.make(key))
        })
      )
    )
  )
})
export type AppConfig = Config.Config.Success<typeof AppConfig>

export type StorageChoice =
  | { readonly _tag: "memory" }
  | { readonly _tag: "postgres"; readonly url: string; readonly preparedStatements?: boolean | undefined }
  | { readonly _tag: "pglite"; readonly dataDir: string }

/** `OCTAVO_STORAGE=memory` wins; then `DATABASE_URL`; else embedded PostgreSQL under `OCTAVO_DATA_DIR`. */
export const storageChoice = (config: AppConfig): StorageChoice => {
  if (Option.isSome(config.storage)) return { _tag: "memory" }
  if (Option.isSome(config.databaseUrl))
    return {
      _tag: "postgres",
      url: Redacted.value(config.databaseUrl.value),
      preparedStatements: config.pgPreparedStatements
    }
  return { _tag: "pglite", dataDir: config.dataDir }
}
