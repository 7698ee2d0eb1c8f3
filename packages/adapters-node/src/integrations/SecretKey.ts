import { randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Either, Option, Redacted } from "effect"
import { SECRET_KEY_VARIABLE } from "./SecretBox.js"

export const SECRET_KEY_BYTES = 32

const keyRule = `must be ${SECRET_KEY_BYTES} bytes in base64 (make one with: openssl rand -base64 32)`

/** A key from its base64 text: exactly 32 bytes, or the rule it breaks. */
export const decodeSecretKey = (text: string): Either.Either<Uint8Array, string> => {
  const trimmed = text.trim()
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) && !/^[A-Za-z0-9_-]+={0,2}$/.test(trimmed)) return Either.left(keyRule)
  const bytes = Buffer.from(trimmed, trimmed.includes("-") || trimmed.includes("_") ? "base64url" : "base64")
  return bytes.length === SECRET_KEY_BYTES ? Either.right(new Uint8Array(bytes)) : Either.left(`${keyRule}; got ${bytes.length} bytes`)
}

/** The file of the embedded default's generated key, beside its database. */
export const secretKeyFile = (dataDir: string) => join(dataDir, "secret.key")

/**
 * The embedded default's key (decision 8): read from `<dataDir>/secret.key`, or made there on first
 * start, readable by its owner only. A file that holds no valid key stops the start.
 */
export const loadOrCreateSecretKey = (dataDir: string) =>
  Effect.try({
    try: () => {
      const file = secretKeyFile(dataDir)
      mkdirSync(dataDir, { recursive: true })
      try {
        writeFileSync(file, `${randomBytes(SECRET_KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" })
        // The process's umask may have narrowed the mode, never widened it; this states it.
        chmodSync(file, 0o600)
      } catch (error) {
        if ((error as { readonly code?: string }).code !== "EEXIST") throw error
      }
      const key = decodeSecretKey(readFileSync(file, "utf8"))
      if (Either.isLeft(key)) throw new Error(`${file} ${key.left}; remove it to make a new one, or set ${SECRET_KEY_VARIABLE}`)
      return Redacted.make(key.right)
    },
    catch: (error) => new Error(`The secret key for integrations' secrets: ${error instanceof Error ? error.message : String(error)}`)
  })

/** A key for this process only: in-memory storage forgets the secrets with everything else. */
export const ephemeralSecretKey = (): Redacted.Redacted<Uint8Array> => Redacted.make(new Uint8Array(randomBytes(SECRET_KEY_BYTES)))

/**
 * The key that seals integrations' secrets at start (decision 8): OCTAVO_SECRET_KEY when set; else on the
 * embedded default the one in its data directory, on in-memory storage one for the process, and none on a
 * PostgreSQL server (publishing secrets is then 412).
 */
export const integrationsSecretKey = (
  configured: Option.Option<Redacted.Redacted<Uint8Array>>,
  storage: { readonly _tag: "memory" } | { readonly _tag: "postgres" } | { readonly _tag: "pglite"; readonly dataDir: string }
): Effect.Effect<Redacted.Redacted<Uint8Array> | undefined, Error> => {
  if (Option.isSome(configured)) return Effect.succeed(configured.value)
  switch (storage._tag) {
    case "pglite":
      return Effect.tap(
        loadOrCreateSecretKey(storage.dataDir),
        () =>
          Effect.logInfo("Integrations' secrets are sealed with the key in the data directory").pipe(
            Effect.annotateLogs({ file: secretKeyFile(storage.dataDir) })
          )
      )
    case "memory":
      return Effect.succeed(ephemeralSecretKey())
    case "postgres":
      return Effect.as(
        Effect.logWarning(`${SECRET_KEY_VARIABLE} is not set: integrations may be published without secrets only`),
        undefined
      )
  }
}
