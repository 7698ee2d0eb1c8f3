import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { PreconditionFailed, SecretBox } from "@octavo/domain"
import { Effect, Layer, Redacted } from "effect"

/** The variable whose key seals integrations' secrets (decision 8). */
export const SECRET_KEY_VARIABLE = "OCTAVO_SECRET_KEY"

const IV_BYTES = 12
const TAG_BYTES = 16
// The format's version first, so that a later key rotation can tell sealed values apart.
const PREFIX = "aes256gcm.v1"

const noKey = new PreconditionFailed({
  reason:
    `secrets: the server has no key to encrypt them with: set ${SECRET_KEY_VARIABLE} to 32 random bytes in base64 (openssl rand -base64 32), or publish without secrets`
})

const unreadable = new PreconditionFailed({
  reason: `secrets: the stored secrets cannot be decrypted with the configured ${SECRET_KEY_VARIABLE}`
})

const base64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")

/**
 * AES-256-GCM with Node's crypto: a random 96-bit IV per value, the 128-bit tag kept beside the
 * ciphertext. Without a key, sealing fails with 412 and opening too.
 */
export const makeSecretBox = (key: Redacted.Redacted<Uint8Array> | undefined): typeof SecretBox.Service =>
  SecretBox.of({
    seal: (plaintext) =>
      key === undefined ? Effect.fail(noKey) : Effect.sync(() => {
        const iv = randomBytes(IV_BYTES)
        const cipher = createCipheriv("aes-256-gcm", Redacted.value(key), iv)
        const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
        return [PREFIX, base64Url(iv), base64Url(ciphertext), base64Url(cipher.getAuthTag())].join(".")
      }),
    open: (sealed) =>
      key === undefined ? Effect.fail(noKey) : Effect.try({
        try: () => {
          const [iv, ciphertext, tag, ...rest] = sealed.startsWith(`${PREFIX}.`) ? sealed.slice(PREFIX.length + 1).split(".") : []
          if (iv === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) throw new Error("not a sealed value")
          const decipher = createDecipheriv("aes-256-gcm", Redacted.value(key), Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES })
          decipher.setAuthTag(Buffer.from(tag, "base64url"))
          return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8")
        },
        catch: () => unreadable
      })
  })

export const SecretBoxLive = (key: Redacted.Redacted<Uint8Array> | undefined) => Layer.succeed(SecretBox, makeSecretBox(key))
