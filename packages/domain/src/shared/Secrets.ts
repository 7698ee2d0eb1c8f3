import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import { Context, Effect, Layer } from "effect"

/** Randomness and hashing: ids, token secrets and token hashes. */
export class Secrets extends Context.Tag("@octavo/domain/Secrets")<Secrets, {
  /** A new opaque, URL-safe id. */
  readonly newId: Effect.Effect<string>
  /** A new bearer token secret. */
  readonly newToken: Effect.Effect<string>
  /** The stored form of a token secret; the secret itself is never stored. */
  readonly hashToken: (token: string) => Effect.Effect<string>
  /** `length` characters of [A-Za-z0-9], each uniformly random: a key a person may paste. */
  readonly newKey: (length: number) => Effect.Effect<string>
  /** `bytes` random bytes, base64url: a signing secret. */
  readonly newSecret: (bytes: number) => Effect.Effect<string>
}>() {}

// The Web Crypto API is a web standard (browsers, Node, Deno, Bun), not a Node API.
const webCrypto = globalThis.crypto

/** What this file uses of Node's `node:crypto`, where the runtime has it. */
interface NodeHashing {
  readonly createHash: (algorithm: "sha256") => {
    update(text: string): { digest(encoding: "hex"): string }
  }
}

/**
 * Node's own SHA-256 (OpenSSL) when the runtime is Node, found at run time so that the domain imports
 * no Node module: about four times quicker than the portable one, which every other runtime uses. Both
 * hash the UTF-8 of the text. (`process.getBuiltinModule`: Node 20.16 and later.)
 */
const nodeHashing = (globalThis as { readonly process?: { readonly getBuiltinModule?: (id: string) => unknown } }).process
  ?.getBuiltinModule?.("node:crypto") as NodeHashing | undefined

/** SHA-256 of a text's UTF-8 in the portable implementation (@noble/hashes), in hex. */
export const portableSha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)))

/**
 * SHA-256 of a text's UTF-8, in hex, synchronously: a token's stored form, a tracked event's dedup
 * key. Node's implementation on Node, the portable one elsewhere; the same digest either way.
 */
export const sha256Hex: (text: string) => string = nodeHashing === undefined
  ? portableSha256Hex
  : (text) => nodeHashing.createHash("sha256").update(text).digest("hex")

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
/**
 * Random bytes for ids, drawn from Web Crypto 4 KiB at a time: one call per 200 ids rather than one
 * each (a batch of tracked events takes 100). Secrets are drawn on their own, never from this pool.
 */
const idBytes = (() => {
  const pool = new Uint8Array(4096)
  let at = pool.length
  return (length: number): Uint8Array => {
    if (length > pool.length) return webCrypto.getRandomValues(new Uint8Array(length))
    if (at + length > pool.length) {
      webCrypto.getRandomValues(pool)
      at = 0
    }
    at += length
    return pool.subarray(at - length, at)
  }
})()

const randomString = (length: number, bytes: Uint8Array = webCrypto.getRandomValues(new Uint8Array(length))): string => {
  let out = ""
  // 256 % 62 bias is negligible for identifiers; tokens use 43 characters (~256 bits).
  for (const b of bytes) out += alphabet[b % alphabet.length]
  return out
}

/** Uniform over the alphabet: bytes past the largest multiple of 62 are drawn again. */
const uniformString = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const b of webCrypto.getRandomValues(new Uint8Array(length))) {
      if (b < 248 && out.length < length) out += alphabet[b % alphabet.length]
    }
  }
  return out
}

const base64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** Whether two secrets are equal, in a time that depends on their lengths only. */
export const sameSecret = (a: string, b: string): boolean => {
  let difference = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  return difference === 0
}

export const SecretsLive = Layer.succeed(Secrets, {
  newId: Effect.sync(() => randomString(20, idBytes(20))),
  newToken: Effect.sync(() => `oct_${randomString(43)}`),
  // Every authenticated request hashes its token: synchronously, without Web Crypto's promise and its turn of the loop.
  hashToken: (token) => Effect.sync(() => sha256Hex(token)),
  newKey: (length) => Effect.sync(() => uniformString(length)),
  newSecret: (bytes) => Effect.sync(() => base64Url(webCrypto.getRandomValues(new Uint8Array(bytes))))
})
