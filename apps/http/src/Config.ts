import { Config, ConfigError, Either, Option, Redacted } from "effect"
import { parseNetworkClasses } from "./WebFetch.js"

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
  /** One fetch's time limit: 1 ms to about 24 days (Node's timers go no further). */
  importTimeoutMs: Config.integer("OCTAVO_IMPORT_TIMEOUT_MS").pipe(
    Config.withDefault(10_000),
    Config.mapOrFail((ms) =>
      ms >= 1 && ms <= 2_147_483_647
        ? Either.right(ms)
        : Either.left(ConfigError.InvalidData(["OCTAVO_IMPORT_TIMEOUT_MS"], "must be a number of milliseconds from 1 to 2147483647"))
    )
  )
})
export type AppConfig = Config.Config.Success<typeof AppConfig>

export type StorageChoice =
  | { readonly _tag: "memory" }
  | { readonly _tag: "postgres"; readonly url: string }
  | { readonly _tag: "pglite"; readonly dataDir: string }

/** `OCTAVO_STORAGE=memory` wins; then `DATABASE_URL`; else embedded PostgreSQL under `OCTAVO_DATA_DIR`. */
export const storageChoice = (config: AppConfig): StorageChoice => {
  if (Option.isSome(config.storage)) return { _tag: "memory" }
  if (Option.isSome(config.databaseUrl)) return { _tag: "postgres", url: Redacted.value(config.databaseUrl.value) }
  return { _tag: "pglite", dataDir: config.dataDir }
}
