import { Context, Effect, Layer } from "effect"

/** Randomness and hashing: ids, token secrets and token hashes. */
export class Secrets extends Context.Tag("@octavo/domain/Secrets")<Secrets, {
  /** A new opaque, URL-safe id. */
  readonly newId: Effect.Effect<string>
  /** A new bearer token secret. */
  readonly newToken: Effect.Effect<string>
  /** The stored form of a token secret; the secret itself is never stored. */
  readonly hashToken: (token: string) => Effect.Effect<string>
}>() {}

// The Web Crypto API is a web standard (browsers, Node, Deno, Bun), not a Node API.
const webCrypto = globalThis.crypto

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const randomString = (length: number): string => {
  const bytes = webCrypto.getRandomValues(new Uint8Array(length))
  let out = ""
  // 256 % 62 bias is negligible for identifiers; tokens use 43 characters (~256 bits).
  for (const b of bytes) out += alphabet[b % alphabet.length]
  return out
}

const hex = (buffer: ArrayBuffer): string => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")

export const SecretsLive = Layer.succeed(Secrets, {
  newId: Effect.sync(() => randomString(20)),
  newToken: Effect.sync(() => `oct_${randomString(43)}`),
  hashToken: (token) => Effect.promise(() => webCrypto.subtle.digest("SHA-256", new TextEncoder().encode(token))).pipe(Effect.map(hex))
})
