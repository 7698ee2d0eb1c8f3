import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { AppConfig, storageChoice } from "../src/Config.js"

const load = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(AppConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("configuration", () => {
  it.effect("takes the defaults from an empty environment", () =>
    Effect.gen(function*() {
      const config = yield* load({})
      expect(Either.getOrThrow(config)).toMatchObject({
        port: 8080,
        dataDir: "./.octavo",
        importAllow: [],
        importTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 65_000,
        maxConnectionsPerAddress: 64,
        rateLimitPerMinute: 1_200,
        rateLimitAnonymousPerMinute: 300,
        rateLimitTrustForwardedFor: false
      })
    }))

  it.effect("keeps PostgreSQL statements prepared unless OCTAVO_PG_PREPARED_STATEMENTS is false", () =>
    Effect.gen(function*() {
      const url = "postgres://octavo@db.example:5432/docs"
      expect(storageChoice(Either.getOrThrow(yield* load({ DATABASE_URL: url })))).toEqual({
        _tag: "postgres",
        url,
        preparedStatements: true
      })
      const off = Either.getOrThrow(yield* load({ DATABASE_URL: url, OCTAVO_PG_PREPARED_STATEMENTS: "false" }))
      expect(storageChoice(off)).toEqual({ _tag: "postgres", url, preparedStatements: false })
      const refused = yield* load({ DATABASE_URL: url, OCTAVO_PG_PREPARED_STATEMENTS: "sometimes" })
      expect(Either.isLeft(refused) && String(refused.left)).toEqual(expect.stringContaining("OCTAVO_PG_PREPARED_STATEMENTS"))
    }))

  it.effect("refuses an import timeout outside 1 ms to 2^31 - 1 ms, naming the variable", () =>
    Effect.gen(function*() {
      for (const ms of ["1", "2147483647"]) expect(Either.isRight(yield* load({ OCTAVO_IMPORT_TIMEOUT_MS: ms }))).toBe(true)
      for (const ms of ["0", "-5", "2147483648"]) {
        const refused = yield* load({ OCTAVO_IMPORT_TIMEOUT_MS: ms })
        expect([ms, Either.isLeft(refused) && String(refused.left)]).toEqual([ms, expect.stringContaining("OCTAVO_IMPORT_TIMEOUT_MS")])
      }
    }))

  it.effect("refuses a request timeout outside 1 ms to 2^31 - 1 ms, naming the variable", () =>
    Effect.gen(function*() {
      expect(Either.getOrThrow(yield* load({ OCTAVO_REQUEST_TIMEOUT_MS: "300" })).requestTimeoutMs).toBe(300)
      for (const ms of ["0", "-1", "2147483648", "soon"]) {
        const refused = yield* load({ OCTAVO_REQUEST_TIMEOUT_MS: ms })
        expect([ms, Either.isLeft(refused) && String(refused.left)]).toEqual([ms, expect.stringContaining("OCTAVO_REQUEST_TIMEOUT_MS")])
      }
    }))

  it.effect("takes a cap of connections per address of 0 (none) or more, naming the variable otherwise", () =>
    Effect.gen(function*() {
      for (const count of [0, 1, 500]) {
        expect(Either.getOrThrow(yield* load({ OCTAVO_MAX_CONNECTIONS_PER_ADDRESS: String(count) })).maxConnectionsPerAddress).toBe(count)
      }
      for (const count of ["-1", "2.5", "many"]) {
        const refused = yield* load({ OCTAVO_MAX_CONNECTIONS_PER_ADDRESS: count })
        expect([count, Either.isLeft(refused) && String(refused.left)]).toEqual([
          count,
          expect.stringContaining("OCTAVO_MAX_CONNECTIONS_PER_ADDRESS")
        ])
      }
    }))

  it.effect("takes rate limits of 0 (none) or more, naming the variable otherwise", () =>
    Effect.gen(function*() {
      const config = Either.getOrThrow(
        yield* load({
          OCTAVO_RATE_LIMIT_PER_MINUTE: "0",
          OCTAVO_RATE_LIMIT_ANONYMOUS_PER_MINUTE: "60",
          OCTAVO_RATE_LIMIT_TRUST_FORWARDED_FOR: "true"
        })
      )
      expect(config).toMatchObject({ rateLimitPerMinute: 0, rateLimitAnonymousPerMinute: 60, rateLimitTrustForwardedFor: true })
      for (const name of ["OCTAVO_RATE_LIMIT_PER_MINUTE", "OCTAVO_RATE_LIMIT_ANONYMOUS_PER_MINUTE"]) {
        for (const count of ["-1", "2.5", "lots"]) {
          const refused = yield* load({ [name]: count })
          expect([count, Either.isLeft(refused) && String(refused.left)]).toEqual([count, expect.stringContaining(name)])
        }
      }
      const notBoolean = yield* load({ OCTAVO_RATE_LIMIT_TRUST_FORWARDED_FOR: "maybe" })
      expect(Either.isLeft(notBoolean) && String(notBoolean.left)).toContain("OCTAVO_RATE_LIMIT_TRUST_FORWARDED_FOR")
    }))
})
