import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { makeSecretBox } from "../src/integrations/SecretBox.js"
import { integrationsSecretKey, loadOrCreateSecretKey, secretKeyFile } from "../src/integrations/SecretKey.js"

// Decision 8: integrations' secrets sealed with AES-256-GCM under OCTAVO_SECRET_KEY; on the embedded default a
// key made once in the data directory, readable by its owner only.
// Reading OCTAVO_SECRET_KEY at start: apps/http/test/integrationSecrets.test.ts.

const newKey = () => Redacted.make(new Uint8Array(randomBytes(32)))

describe("integrations' secret key and box", () => {
  it.effect("seals with a fresh IV each time; opens only under the same key and untouched", () =>
    Effect.gen(function*() {
      const box = makeSecretBox(newKey())
      const plaintext = JSON.stringify({ API_KEY: "sk-live-1234567890" })
      const sealed = yield* box.seal(plaintext)
      const again = yield* box.seal(plaintext)
      expect(sealed).not.toContain("sk-live")
      expect(sealed).not.toBe(again)
      expect(yield* box.open(sealed)).toBe(plaintext)
      expect(yield* box.open(again)).toBe(plaintext)
      const other = makeSecretBox(newKey())
      expect((yield* Effect.flip(other.open(sealed))).message).toMatch(/cannot be decrypted/)
      const parts = sealed.split(".")
      const flipped = Buffer.from(parts[3]!, "base64url")
      flipped[0] = flipped[0]! ^ 1
      const tampered = [...parts.slice(0, 3), flipped.toString("base64url"), parts[4]].join(".")
      expect((yield* Effect.flip(box.open(tampered))).message).toMatch(/cannot be decrypted/)
      expect((yield* Effect.flip(box.open("garbage"))).message).toMatch(/cannot be decrypted/)
      const keyless = makeSecretBox(undefined)
      const refused = yield* Effect.flip(keyless.seal(plaintext))
      expect([refused._tag, refused.message]).toEqual(["PreconditionFailed", expect.stringContaining("OCTAVO_SECRET_KEY")])
    }))

  it.effect("the embedded default makes its key once, mode 0600, and reuses it; a damaged file stops the start", () =>
    Effect.gen(function*() {
      const dataDir = join(mkdtempSync(join(tmpdir(), "octavo-key-")), "data")
      const first = yield* loadOrCreateSecretKey(dataDir)
      const file = secretKeyFile(dataDir)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const second = yield* integrationsSecretKey(Option.none(), { _tag: "pglite", dataDir })
      expect(Buffer.from(Redacted.value(second!))).toEqual(Buffer.from(Redacted.value(first)))
      // What the first key sealed, the reused one opens.
      const sealed = yield* makeSecretBox(first).seal("kept")
      expect(yield* makeSecretBox(second).open(sealed)).toBe("kept")
      expect(readFileSync(file, "utf8").trim()).toHaveLength(44)
      writeFileSync(file, "short\n")
      expect((yield* Effect.flip(loadOrCreateSecretKey(dataDir))).message).toMatch(/secret\.key must be 32 bytes in base64/)
      // A configured key wins; a PostgreSQL server without one has none; memory makes one for the process.
      const configured = newKey()
      expect(yield* integrationsSecretKey(Option.some(configured), { _tag: "pglite", dataDir })).toBe(configured)
      expect(yield* integrationsSecretKey(Option.none(), { _tag: "postgres" })).toBeUndefined()
      expect(Redacted.value((yield* integrationsSecretKey(Option.none(), { _tag: "memory" }))!)).toHaveLength(32)
    }))
})
