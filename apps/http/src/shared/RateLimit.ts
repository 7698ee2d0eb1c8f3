import { createHash } from "node:crypto"

/**
 * Rate limits, per server process: a fixed window per key, a token's hash for a request that carries one and the
 * client's address otherwise. Failed authentications cost the address more, so tokens cannot be guessed quickly.
 * Nothing here reads a clock: every call is told the time, so tests move it at will.
 */
export interface RateLimitOptions {
  /** Requests a token may make per window; 0 for no limit. */
  readonly perToken: number
  /** Requests an address may make per window without a token, a failed authentication costing `failedAuthWeight`; 0 for no limit. */
  readonly perAddress: number
  /** Batches of insights events an address may track per window without a token; 0 for no limit. */
  readonly trackingPerAddress: number
  /** What an answer 401 costs its address, in requests. */
  readonly failedAuthWeight: number
  readonly windowMs: number
  /** Keys held at most; past it the oldest window is forgotten, which only ever gives its key a fresh budget. */
  readonly maxKeys: number
  /** Take the client's address from the last entry of X-Forwarded-For, as the proxy in front appends it. */
  readonly trustForwardedFor: boolean
}

export const DEFAULT_RATE_LIMITS: RateLimitOptions = {
  perToken: 1_200,
  perAddress: 300,
  trackingPerAddress: 60,
  failedAuthWeight: 10,
  windowMs: 60_000,
  maxKeys: 100_000,
  trustForwardedFor: false
}

/** Where a key stands in its window; `resetAt` is when the window ends, in epoch milliseconds. */
export interface Quota {
  readonly limit: number
  readonly remaining: number
  readonly resetAt: number
}

interface Window {
  readonly start: number
  used: number
}

/**
 * Fixed windows by key. The map is kept in the order windows started (a window that restarts moves to the end),
 * so windows that have ended are all at its front: each call drops them, and a full map drops its oldest.
 */
export const makeWindows = (windowMs: number, maxKeys: number) => {
  const windows = new Map<string, Window>()
  const dropEnded = (now: number) => {
    for (const [key, window] of windows) {
      if (window.start + windowMs > now) break
      windows.delete(key)
    }
  }
  const current = (key: string, now: number): Window => {
    dropEnded(now)
    const found = windows.get(key)
    if (found !== undefined && found.start + windowMs > now) return found
    windows.delete(key)
    if (windows.size >= maxKeys) {
      const oldest = windows.keys().next()
      if (oldest.done !== true) windows.delete(oldest.value)
    }
    const fresh: Window = { start: now, used: 0 }
    windows.set(key, fresh)
    return fresh
  }
  const quota = (window: Window, limit: number): Quota => ({
    limit,
    remaining: Math.max(0, limit - window.used),
    resetAt: window.start + windowMs
  })
  return {
    /** Counts `weight` when it fits in `limit`; a refused request counts nothing. */
    take: (key: string, limit: number, weight: number, now: number): { readonly allowed: boolean; readonly quota: Quota } => {
      const window = current(key, now)
      const allowed = window.used + weight <= limit
      if (allowed) window.used += weight
      return { allowed, quota: quota(window, limit) }
    },
    /** Counts `weight` whether or not it fits: for what has already happened. */
    charge: (key: string, limit: number, weight: number, now: number): Quota => {
      const window = current(key, now)
      window.used += weight
      return quota(window, limit)
    },
    /** Where the key stands, counting nothing. */
    peek: (key: string, limit: number, now: number): Quota => {
      dropEnded(now)
      const found = windows.get(key)
      return found !== undefined && found.start + windowMs > now
        ? quota(found, limit)
        : { limit, remaining: limit, resetAt: now + windowMs }
    },
    get size() {
      return windows.size
    }
  }
}

/** A token's key: its SHA-256, so the raw token is never held. */
export const tokenKey = (token: string): string => `token:${createHash("sha256").update(token).digest("base64url")}`

/** The eight groups of an IPv6 address, or undefined when it is not one. */
const ipv6Groups = (address: string): ReadonlyArray<string> | undefined => {
  const halves = address.split("%")[0]!.toLowerCase().split("::")
  if (halves.length > 2) return undefined
  const split = (half: string | undefined) => half === undefined || half === "" ? [] : half.split(":")
  const head = split(halves[0])
  const tail = split(halves[1])
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill("0"), ...tail]
  return groups.every((group) => /^[0-9a-f]{1,4}$/.test(group)) ? groups.map((group) => group.replace(/^0+(?=.)/, "")) : undefined
}

/**
 * An address's key: an IPv4 address as is (also when IPv6 wraps it), an IPv6 address by its /64, since one
 * client usually holds a whole /64 and could otherwise take a fresh address per request.
 */
export const addressKey = (address: string): string => {
  const trimmed = address.trim()
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(trimmed)
  if (mapped !== null) return `address:${mapped[1]}`
  const groups = trimmed.includes(":") ? ipv6Groups(trimmed) : undefined
  return groups === undefined ? `address:${trimmed}` : `address:${groups.slice(0, 4).join(":")}::/64`
}

/** The client's address as the proxy in front saw it: the last entry of X-Forwarded-For. */
export const forwardedAddress = (header: string | undefined): string | undefined => {
  const last = header?.split(",").at(-1)?.trim()
  return last === undefined || last === "" ? undefined : last
}

/** Who a request counts against: its token when it carries one, and always its address. */
export interface Caller {
  readonly token: string | undefined
  readonly address: string
  /** Whether the request tracks insights events, which has a budget of its own without a token. */
  readonly tracking?: boolean | undefined
}

/** What was decided for a request: let in or refused, and the quota its answer reports (none when no limit applies). */
export interface Admission {
  readonly allowed: boolean
  readonly quota: Quota | undefined
  readonly caller: Caller
}

/**
 * The limiter of one server process. A request with a token counts against its token; one without, against its
 * address; an answer 401 costs the address `failedAuthWeight` in all. While an address is over its limit, its
 * requests with a token are refused too: otherwise failed authentications would cost a guesser nothing.
 */
export const makeRateLimiter = (options: RateLimitOptions) => {
  const windows = makeWindows(options.windowMs, options.maxKeys)
  const limitsAddress = options.perAddress > 0
  const limitsToken = options.perToken > 0
  return {
    admit: (caller: Caller, now: number): Admission => {
      const address = addressKey(caller.address)
      if (caller.token === undefined) {
        if (caller.tracking === true && options.trackingPerAddress > 0) {
          const tracked = windows.take(`tracking:${address}`, options.trackingPerAddress, 1, now)
          if (!tracked.allowed) return { ...tracked, caller }
        }
        if (!limitsAddress) return { allowed: true, quota: undefined, caller }
        return { ...windows.take(address, options.perAddress, 1, now), caller }
      }
      if (limitsAddress) {
        const standing = windows.peek(address, options.perAddress, now)
        if (standing.remaining === 0) return { allowed: false, quota: standing, caller }
      }
      if (!limitsToken) return { allowed: true, quota: undefined, caller }
      return { ...windows.take(tokenKey(caller.token), options.perToken, 1, now), caller }
    },
    /** Counts what the answer says about the request, and gives the quota it reports. */
    settle: (admission: Admission, status: number, now: number): Quota | undefined => {
      const { caller } = admission
      const address = addressKey(caller.address)
      if (status === 401 && limitsAddress) {
        // A request without a token has already paid 1 of the weight.
        const weight = caller.token === undefined ? options.failedAuthWeight - 1 : options.failedAuthWeight
        return windows.charge(address, options.perAddress, Math.max(0, weight), now)
      }
      if (caller.token === undefined) return limitsAddress ? windows.peek(address, options.perAddress, now) : undefined
      return limitsToken ? windows.peek(tokenKey(caller.token), options.perToken, now) : undefined
    },
    get keys() {
      return windows.size
    }
  }
}
export type RateLimiter = ReturnType<typeof makeRateLimiter>

/** The headers every limited answer carries; the reset is in epoch seconds, as GitBook's API gives it. */
export const quotaHeaders = (quota: Quota): Record<string, string> => ({
  "x-ratelimit-limit": String(quota.limit),
  "x-ratelimit-remaining": String(quota.remaining),
  "x-ratelimit-reset": String(Math.ceil(quota.resetAt / 1000))
})

/** Whole seconds until the window resets, at least 1: the Retry-After of a refusal. */
export const retryAfterSeconds = (quota: Quota, now: number): number => Math.max(1, Math.ceil((quota.resetAt - now) / 1000))
