import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { AppConfig } from "../src/Config.js"

// Decision 8: integrations' secrets sealed with AES-256-GCM under OCTAVO_SECRET_KEY; on the embedded default a
// key made once in the data directory, readable by its owner only. The key and the box themselves:
// packages/adapters-node/test/secretBox.test.ts.

const load = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(AppConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("integrations' secret key and box", () => {
  it.effect("OCTAVO_SECRET_KEY: 32 bytes in base64, else the start fails naming it", () =>
    Effect.gen(function*() {
      const text = randomBytes(32).toString("base64")
      const config = Either.getOrThrow(yield* load({ OCTAVO_SECRET_KEY: text }))
      expect(Buffer.from(Redacted.value(Option.getOrThrow(config.secretKey))).toString("base64")).toBe(text)
      expect(Option.isNone(Either.getOrThrow(yield* load({})).secretKey)).toBe(true)
      for (const wrong of [randomBytes(31).toString("base64"), randomBytes(33).toString("base64"), "not base64 at all!", ""]) {
        const refused = yield* load({ OCTAVO_SECRET_KEY: wrong })
        expect([wrong, Either.isLeft(refused) && String(refused.left)]).toEqual([wrong, expect.stringContaining("OCTAVO_SECRET_KEY")])
        // The key itself is never in the message.
        if (wrong.length > 0 && Either.isLeft(refused)) expect(String(refused.left)).not.toContain(wrong)
      }
    }))
})
