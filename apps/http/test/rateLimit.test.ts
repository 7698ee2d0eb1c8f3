import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { MemoryStorage } from "@octavo/adapters-memory"
import { describe, expect, it, layer } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import {
  addressKey,
  DEFAULT_RATE_LIMITS,
  forwardedAddress,
  makeRateLimiter,
  makeWindows,
  quotaHeaders,
  retryAfterSeconds,
  tokenKey
} from "../src/shared/RateLimit.js"
import { ADMIN_TOKEN, type Answer, call, testServer } from "./harness.js"
import { newUser } from "./scenario.js"

/** The three headers of an answer, as numbers; undefined for those it lacks. */
const quotaOf = (answer: Pick<Answer, "headers">) => ({
  limit: Number(answer.headers["x-ratelimit-limit"]),
  remaining: Number(answer.headers["x-ratelimit-remaining"]),
  reset: Number(answer.headers["x-ratelimit-reset"])
})

/** A GET with headers of the test's choosing, answering status and headers. */
const getWith = (path: string, headers: Record<string, string>) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))
    yield* response.text
    return { status: response.status, headers: response.headers }
  }).pipe(Effect.scoped, Effect.orDie)

const options = (overrides: Partial<typeof DEFAULT_RATE_LIMITS> = {}) => ({ ...DEFAULT_RATE_LIMITS, ...overrides })

describe("the limiter", () => {
  it("counts within a fixed window, refuses past the limit without counting, and starts afresh when it ends", () => {
    const windows = makeWindows(1_000, 10)
    expect(windows.take("k", 2, 1, 0)).toEqual({ allowed: true, quota: { limit: 2, remaining: 1, resetAt: 1_000 } })
    expect(windows.take("k", 2, 1, 400)).toEqual({ allowed: true, quota: { limit: 2, remaining: 0, resetAt: 1_000 } })
    expect(windows.take("k", 2, 1, 999)).toEqual({ allowed: false, quota: { limit: 2, remaining: 0, resetAt: 1_000 } })
    expect(windows.take("k", 2, 1, 1_000)).toEqual({ allowed: true, quota: { limit: 2, remaining: 1, resetAt: 2_000 } })
    expect(windows.peek("other", 2, 1_500)).toEqual({ limit: 2, remaining: 2, resetAt: 2_500 })
  })

  it("a weight that does not fit is refused even with some budget left; a charge counts past the limit", () => {
    const windows = makeWindows(1_000, 10)
    windows.take("k", 10, 5, 0)
    expect(windows.take("k", 10, 6, 0).allowed).toBe(false)
    expect(windows.charge("k", 10, 20, 0)).toEqual({ limit: 10, remaining: 0, resetAt: 1_000 })
    expect(windows.take("k", 10, 1, 500).allowed).toBe(false)
  })

  it("forgets windows that ended, and holds no more than its cap of keys", () => {
    const windows = makeWindows(1_000, 3)
    for (const [key, at] of [["a", 0], ["b", 100], ["c", 200]] as const) windows.take(key, 5, 1, at)
    expect(windows.size).toBe(3)
    // Full: the oldest window (a's) gives way, so a starts afresh.
    windows.take("d", 5, 1, 300)
    expect(windows.size).toBe(3)
    expect(windows.peek("a", 5, 300).remaining).toBe(5)
    expect(windows.peek("b", 5, 300).remaining).toBe(4)
    // b's and c's windows have ended by 1 250: only d's is kept.
    windows.take("d", 5, 1, 1_250)
    expect(windows.size).toBe(1)
    for (let i = 0; i < 10_000; i++) windows.take(`many-${i}`, 5, 1, 2_000 + i)
    expect(windows.size).toBe(3)
  })

  it("keys a token by its hash, never the token itself", () => {
    const key = tokenKey("secret-token")
    expect(key).not.toContain("secret-token")
    expect(key).toBe(tokenKey("secret-token"))
    expect(key).not.toBe(tokenKey("secret-token2"))
  })

  it("keys IPv4 as is, IPv4 inside IPv6 as IPv4, and IPv6 by its /64", () => {
    expect(addressKey("203.0.113.7")).toBe("address:203.0.113.7")
    expect(addressKey("::ffff:203.0.113.7")).toBe("address:203.0.113.7")
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("address:2001:db8:1:2::/64")
    expect(addressKey("2001:DB8:1:2::9")).toBe("address:2001:db8:1:2::/64")
    expect(addressKey("2001:db8::1")).toBe("address:2001:db8:0:0::/64")
    expect(addressKey("::1")).toBe("address:0:0:0:0::/64")
    expect(addressKey("fe80::1%eth0")).toBe("address:fe80:0:0:0::/64")
    expect(addressKey("not:an:address::at::all")).toBe("address:not:an:address::at::all")
  })

  it("takes the last entry of X-Forwarded-For, the one the proxy in front appended", () => {
    expect(forwardedAddress("198.51.100.1, 203.0.113.7")).toBe("203.0.113.7")
    expect(forwardedAddress("203.0.113.7")).toBe("203.0.113.7")
    expect(forwardedAddress("1.2.3.4, ")).toBeUndefined()
    expect(forwardedAddress(undefined)).toBeUndefined()
  })

  it("states the reset in epoch seconds and Retry-After in whole seconds, at least one", () => {
    const quota = { limit: 5, remaining: 0, resetAt: 1_700_000_060_500 }
    expect(quotaHeaders(quota)).toEqual({ "x-ratelimit-limit": "5", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1700000061" })
    expect(retryAfterSeconds(quota, 1_700_000_000_000)).toBe(61)
    expect(retryAfterSeconds(quota, 1_700_000_060_499)).toBe(1)
    expect(retryAfterSeconds(quota, 1_700_000_070_000)).toBe(1)
  })

  it("an answer 401 costs the address its weight; an address over its limit is refused with any token", () => {
    const limiter = makeRateLimiter(options({ perToken: 100, perAddress: 30, failedAuthWeight: 10 }))
    const guess = (token: string) => {
      const admission = limiter.admit({ token, address: "203.0.113.7" }, 0)
      return admission.allowed ? limiter.settle(admission, 401, 0) : undefined
    }
    expect(guess("a")?.remaining).toBe(20)
    expect(guess("b")?.remaining).toBe(10)
    expect(guess("c")?.remaining).toBe(0)
    expect(guess("d")).toBeUndefined()
    const withRealToken = limiter.admit({ token: "real", address: "203.0.113.7" }, 0)
    expect(withRealToken).toMatchObject({ allowed: false, quota: { limit: 30, remaining: 0, resetAt: 60_000 } })
    // Another address, and the same one in the next window, are let in.
    expect(limiter.admit({ token: "real", address: "203.0.113.8" }, 0).allowed).toBe(true)
    expect(limiter.admit({ token: "real", address: "203.0.113.7" }, 60_000).allowed).toBe(true)
  })

  it("an anonymous 401 costs the weight in all, the request included", () => {
    const limiter = makeRateLimiter(options({ perAddress: 30, failedAuthWeight: 10 }))
    const admission = limiter.admit({ token: undefined, address: "203.0.113.7" }, 0)
    expect(admission.quota?.remaining).toBe(29)
    expect(limiter.settle(admission, 401, 0)?.remaining).toBe(20)
  })

  it("a limit of 0 is none: everything is let in and no quota is stated", () => {
    const limiter = makeRateLimiter(options({ perToken: 0, perAddress: 0 }))
    for (let i = 0; i < 1_000; i++) {
      const admission = limiter.admit({ token: i % 2 === 0 ? "t" : undefined, address: "203.0.113.7" }, 0)
      expect(admission).toMatchObject({ allowed: true, quota: undefined })
      expect(limiter.settle(admission, 401, 0)).toBeUndefined()
    }
    expect(limiter.keys).toBe(0)
  })
})

// The server runs on the test clock (from 0): a window ends when the test moves the clock by a minute.
layer(testServer(MemoryStorage, { rateLimit: { perToken: 100, perAddress: 50 } }))("rate limit headers", (it) => {
  it.effect("every answer states the caller's quota: 2xx, 4xx, 404, 401, 415; the health probes are not limited", () =>
    Effect.gen(function*() {
      const ok = yield* call("GET", "/v1/user", { token: ADMIN_TOKEN })
      expect(ok.status).toBe(200)
      expect(quotaOf(ok)).toEqual({ limit: 100, remaining: 99, reset: 60 })
      const invalid = yield* call("POST", "/v1/users", { token: ADMIN_TOKEN, body: { displayName: "" } })
      expect(invalid.status).toBe(400)
      expect(quotaOf(invalid)).toEqual({ limit: 100, remaining: 98, reset: 60 })
      const missing = yield* call("GET", "/v1/no-such-endpoint", { token: ADMIN_TOKEN })
      expect(missing.status).toBe(404)
      expect(quotaOf(missing)).toEqual({ limit: 100, remaining: 97, reset: 60 })
      const notJson = yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, rawBody: "{" })
      expect(notJson.status).toBe(400)
      expect(quotaOf(notJson)).toEqual({ limit: 100, remaining: 96, reset: 60 })
      const plainText = yield* Effect.gen(function*() {
        const client = yield* HttpClient.HttpClient
        const response = yield* client.execute(
          HttpClientRequest.post("/v1/orgs").pipe(
            HttpClientRequest.bearerToken(ADMIN_TOKEN),
            HttpClientRequest.bodyText("{}", "text/plain")
          )
        )
        return { status: response.status, headers: response.headers }
      }).pipe(Effect.scoped, Effect.orDie)
      expect(plainText.status).toBe(415)
      expect(quotaOf(plainText)).toEqual({ limit: 100, remaining: 95, reset: 60 })
      // Without a token the address's quota is stated; a 401 costs it 10.
      const anonymousMissing = yield* call("GET", "/v1/no-such-endpoint")
      expect(anonymousMissing.status).toBe(404)
      expect(quotaOf(anonymousMissing)).toEqual({ limit: 50, remaining: 49, reset: 60 })
      const unauthenticated = yield* call("GET", "/v1/user")
      expect(unauthenticated.status).toBe(401)
      expect(quotaOf(unauthenticated)).toEqual({ limit: 50, remaining: 39, reset: 60 })
      const security = yield* call("GET", "/v1/user", { token: ADMIN_TOKEN })
      expect([security.headers["x-content-type-options"], security.headers["x-request-id"] !== undefined]).toEqual(["nosniff", true])
      for (const probe of ["/healthz", "/readyz"]) {
        const answer = yield* call("GET", probe)
        expect([probe, answer.status, answer.headers["x-ratelimit-limit"]]).toEqual([probe, 200, undefined])
      }
    }))
})

layer(testServer(MemoryStorage, { rateLimit: { perToken: 8, perAddress: 1_000 } }))("a token over its limit", (it) => {
  it.effect("gets 429 with Retry-After and the error body; another token is unaffected; the next window lets it in", () =>
    Effect.gen(function*() {
      // Creating the other user spends two of the administrator's eight requests.
      const other = yield* newUser("Unaffected")
      const answers: Array<Answer> = []
      for (let i = 0; i < 7; i++) answers.push(yield* call("GET", "/v1/user", { token: ADMIN_TOKEN }))
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 429])
      expect(quotaOf(answers[5]!)).toEqual({ limit: 8, remaining: 0, reset: 60 })
      const refused = answers[6]!
      expect(refused.body).toEqual({ error: { code: 429, message: "API rate limit exceeded. Please try again in 60 seconds" } })
      expect(refused.headers["retry-after"]).toBe("60")
      expect(quotaOf(refused)).toEqual({ limit: 8, remaining: 0, reset: 60 })
      expect([refused.headers["x-content-type-options"], refused.headers["x-request-id"] !== undefined]).toEqual(["nosniff", true])
      // Refused requests are not counted, and any route is refused, a body unread.
      expect((yield* call("POST", "/v1/orgs", { token: ADMIN_TOKEN, body: { title: "Refused" } })).status).toBe(429)
      const others = yield* call("GET", "/v1/user", { token: other.token })
      expect(others.status).toBe(200)
      expect(quotaOf(others)).toEqual({ limit: 8, remaining: 7, reset: 60 })
      yield* TestClock.adjust(Duration.seconds(30))
      const later = yield* call("GET", "/v1/user", { token: ADMIN_TOKEN })
      expect([later.status, later.headers["retry-after"]]).toEqual([429, "30"])
      yield* TestClock.adjust(Duration.seconds(30))
      const next = yield* call("GET", "/v1/user", { token: ADMIN_TOKEN })
      expect(next.status).toBe(200)
      expect(quotaOf(next)).toEqual({ limit: 8, remaining: 7, reset: 120 })
    }))
})

layer(testServer(MemoryStorage, { rateLimit: { perToken: 1_000, perAddress: 25 } }))("failed authentication", (it) => {
  it.effect("counts 10 against the address: the third guess leaves nothing, the fourth and real tokens get 429", () =>
    Effect.gen(function*() {
      const guesses: Array<Answer> = []
      for (let i = 0; i < 4; i++) guesses.push(yield* call("GET", "/v1/user", { token: `guess-${i}` }))
      expect(guesses.map((answer) => answer.status)).toEqual([401, 401, 401, 429])
      expect(guesses.slice(0, 3).map((answer) => quotaOf(answer).remaining)).toEqual([15, 5, 0])
      expect(guesses[3]!.body.error.code).toBe(429)
      // Anonymous requests are refused as well, and so is the right token from this address until the window ends.
      expect((yield* call("GET", "/v1/no-such-endpoint")).status).toBe(429)
      const real = yield* call("GET", "/v1/user", { token: ADMIN_TOKEN })
      expect([real.status, quotaOf(real)]).toEqual([429, { limit: 25, remaining: 0, reset: 60 }])
      yield* TestClock.adjust(Duration.minutes(1))
      const after = yield* call("GET", "/v1/user", { token: ADMIN_TOKEN })
      expect([after.status, quotaOf(after)]).toEqual([200, { limit: 1_000, remaining: 999, reset: 120 }])
    }))
})

layer(testServer(MemoryStorage, { rateLimit: { perToken: 0, perAddress: 0 } }))("limits of 0", (it) => {
  it.effect("disable rate limiting: no 429, no quota headers", () =>
    Effect.gen(function*() {
      const statuses = new Set<number>()
      for (let i = 0; i < 60; i++) {
        const answer = yield* call("GET", "/v1/user", { token: i % 3 === 0 ? ADMIN_TOKEN : i % 3 === 1 ? `guess-${i}` : undefined })
        statuses.add(answer.status)
        expect(answer.headers["x-ratelimit-limit"]).toBeUndefined()
      }
      expect([...statuses].sort()).toEqual([200, 401])
    }))
})

layer(testServer(MemoryStorage, { rateLimit: { perAddress: 2, trustForwardedFor: true } }))("behind a proxy", (it) => {
  it.effect("with X-Forwarded-For trusted, each client address has its own budget", () =>
    Effect.gen(function*() {
      const from = (address: string) => getWith("/v1/no-such-endpoint", { "x-forwarded-for": `198.51.100.1, ${address}` })
      expect((yield* from("203.0.113.1")).status).toBe(404)
      expect((yield* from("203.0.113.1")).status).toBe(404)
      expect((yield* from("203.0.113.1")).status).toBe(429)
      const second = yield* from("203.0.113.2")
      expect([second.status, quotaOf(second).remaining]).toEqual([404, 1])
    }))
})

layer(testServer(MemoryStorage, { rateLimit: { perAddress: 2 } }))("not behind a proxy", (it) => {
  it.effect("X-Forwarded-For is ignored: the socket's address is the client's", () =>
    Effect.gen(function*() {
      const statuses: Array<number> = []
      for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
        statuses.push((yield* getWith("/v1/no-such-endpoint", { "x-forwarded-for": address })).status)
      }
      expect(statuses).toEqual([404, 404, 429])
    }))
})
