import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgServerClientInFreshSchema, PgStorage } from "@octavo/adapters-pg"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SignJWT } from "jose"
import { type Answer, call, testServer } from "./harness.js"
import { addMember, newUser } from "./scenario.js"

// Site insights over HTTP (conventions-2.md §2): tracking, exact aggregates over fixed ranges,
// deduplication, visitor segments, limits and permissions. Answers are checked against GitBook's
// schema by the harness. `OCTAVO_INSIGHTS_STORAGE=pglite` (or `=pg` with OCTAVO_TEST_DATABASE_URL)
// runs the same file on PostgreSQL.
const storage = (() => {
  const url = process.env["OCTAVO_TEST_DATABASE_URL"]
  switch (process.env["OCTAVO_INSIGHTS_STORAGE"]) {
    case "pglite":
      return PgStorage.pipe(Layer.provide(PgliteClient()))
    case "pg":
      if (url === undefined) throw new Error("OCTAVO_INSIGHTS_STORAGE=pg needs OCTAVO_TEST_DATABASE_URL")
      return PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(url)))
    default:
      return MemoryStorage
  }
})()

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"

/** A full hour a few hours back, so every event of a test is in the past and its range exact. */
const base = () => {
  const hour = 3_600_000
  return Math.floor(Date.now() / hour) * hour - 5 * hour
}

const event = (
  at: number,
  fields: {
    readonly type?: string
    readonly visitor?: string
    readonly session?: string
    readonly url?: string
    readonly userAgent?: string
    readonly claims?: unknown
    /** The page of a space the event was on; none by default. */
    readonly page?: { readonly page: string | null; readonly space: string }
    readonly extra?: Record<string, unknown>
  } = {}
) => ({
  type: fields.type ?? "page_view",
  timestamp: new Date(at).toISOString(),
  session: {
    visitorId: fields.visitor ?? "v1",
    sessionId: fields.session ?? "s1",
    cookies: {},
    userAgent: fields.userAgent ?? CHROME,
    language: "en",
    referrer: null,
    ...(fields.claims !== undefined ? { visitorAuthClaims: fields.claims } : {})
  },
  location: {
    url: fields.url ?? "https://docs.example.com/guide",
    siteSection: null,
    siteSpace: null,
    siteShareKey: null,
    space: fields.page?.space ?? null,
    revision: null,
    page: fields.page?.page ?? null
  },
  ...fields.extra
})

const setup = Effect.gen(function*() {
  const admin = yield* newUser("Ines Insights")
  const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
  const site = yield* call("POST", `/v1/orgs/${organizationId}/sites`, { token: admin.token, body: { title: "Docs" } })
  expect(site.status).toBe(201)
  const path = `/v1/orgs/${organizationId}/sites/${site.body.id}`
  return { admin, organizationId, path, token: admin.token }
})

const columns = (answer: Answer) => {
  expect(answer.status).toBe(200)
  return answer.body.columns.map((c: { column: string; values: Array<unknown> }) => [c.column, c.values])
}

layer(testServer(storage), { excludeTestServices: true, timeout: 120_000 })("insights over HTTP", (it) => {
  it.effect("tracks a batch with 204 and counts it exactly: events, sessions and visitors by day and by page", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const t = base()
      const track = (events: Array<unknown>) => call("POST", `${s.path}/insights/events`, { token: s.token, body: { events } })
      const guide = { page: "guide", space: "docs" }
      const api = { page: "api", space: "docs" }
      const tracked = yield* track([
        event(t, { visitor: "a", session: "a1", url: "https://docs.example.com/guide", page: guide }),
        event(t + 60_000, { visitor: "a", session: "a1", url: "https://docs.example.com/api", page: api }),
        event(t + 120_000, { visitor: "b", session: "b1", url: "https://docs.example.com/guide", userAgent: IPHONE, page: guide }),
        event(t + 180_000, {
          visitor: "b",
          session: "b2",
          url: "https://docs.example.com/guide?utm_source=news",
          userAgent: IPHONE,
          page: guide
        })
      ])
      expect([tracked.status, tracked.body]).toEqual([204, null])
      const range = { from: new Date(t).toISOString(), to: new Date(t + 3_600_000).toISOString() }
      const aggregate = (body: unknown) => call("POST", `${s.path}/insights/events/aggregate`, { token: s.token, body })
      expect(
        columns(yield* aggregate({ range, select: [{ column: "eventsCount" }, { column: "sessionsCount" }, { column: "visitorsCount" }] }))
      )
        .toEqual([["eventsCount", [4]], ["sessionsCount", [3]], ["visitorsCount", [2]]])
      const byPage = yield* aggregate({
        range,
        groupBy: [{ column: "urlPath" }],
        select: [{ column: "urlPath" }, { column: "visitorsCount" }, { column: "eventsCount" }]
      })
      expect(columns(byPage)).toEqual([["urlPath", ["/guide", "/api"]], ["visitorsCount", [2, 1]], ["eventsCount", [3, 1]]])
      // The page column answers GitBook's {page, space}; a filter names the page the same way.
      const byPageId = yield* aggregate({
        range,
        groupBy: [{ column: "page" }],
        select: [{ column: "page" }, { column: "visitorsCount" }],
        where: [{ column: "page", values: [guide, api] }]
      })
      expect(columns(byPageId)).toEqual([["page", [guide, api]], ["visitorsCount", [2, 1]]])
      const byDevice = yield* aggregate({
        range,
        groupBy: [{ column: "visitorDevice" }],
        order: { by: { column: "visitorDevice" }, direction: "asc" }
      })
      expect(columns(byDevice)).toEqual([["visitorDevice", ["desktop", "mobile"]], ["eventsCount", [2, 2]]])
      const hourly = yield* aggregate({ range, groupBy: [{ column: "datetime", interval: "hour" }] })
      expect(columns(hourly)).toEqual([["datetime", [new Date(t).toISOString()]], ["eventsCount", [4]]])
      const utm = yield* aggregate({
        range,
        groupBy: [{ column: "utmSource" }],
        where: [{ column: "utmSource", values: [null], operator: "notIn" }]
      })
      expect(columns(utm)).toEqual([["utmSource", ["news"]], ["eventsCount", [1]]])
    }))

  it.effect("a batch is at most 1 MiB: one byte over is 413 before it is read, and nothing is counted", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const t = base()
      const batch = JSON.stringify({ events: [event(t, { visitor: "sized" })] })
      // JSON may hold any amount of white space: a valid batch padded to the byte.
      const padded = (bytes: number) => `${batch.slice(0, -1)}${" ".repeat(bytes - batch.length)}}`
      const track = (body: string) => call("POST", `${s.path}/insights/events`, { token: s.token, rawBody: body })
      const over = yield* track(padded(1024 * 1024 + 1))
      expect([over.status, over.body]).toEqual([413, { error: { code: 413, message: "The body is over the limit of 1048576 bytes" } }])
      const range = { from: new Date(t).toISOString(), to: new Date(t + 60_000).toISOString() }
      const counted = Effect.map(
        call("POST", `${s.path}/insights/events/aggregate`, { token: s.token, body: { range, select: [{ column: "eventsCount" }] } }),
        (answer) => answer.body.columns[0].values[0] as number | undefined
      )
      expect(yield* counted).toBe(0)
      expect((yield* track(padded(1024 * 1024))).status).toBe(204)
      expect(yield* counted).toBe(1)
    }))

  it.effect("an event sent twice with its timestamp counts once; one without a timestamp is now", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const t = base()
      const once = event(t, { visitor: "dup" })
      for (let i = 0; i < 2; i++) {
        expect((yield* call("POST", `${s.path}/insights/events`, { token: s.token, body: { events: [once, once] } })).status).toBe(204)
      }
      const { timestamp: _, ...untimed } = event(t)
      expect((yield* call("POST", `${s.path}/insights/events`, { token: s.token, body: { events: [untimed] } })).status).toBe(204)
      const count = (from: number, to: number) =>
        Effect.map(
          call("POST", `${s.path}/insights/events/aggregate`, {
            token: s.token,
            body: { range: { from: new Date(from).toISOString(), to: new Date(to).toISOString() }, select: [{ column: "eventsCount" }] }
          }),
          (answer) => answer.body.columns[0].values[0] as number | undefined
        )
      expect(yield* count(t, t + 1)).toBe(1)
      expect(yield* count(Date.now() - 60_000, Date.now() + 60_000)).toBe(1)
    }))

  it.effect("a bad event refuses the whole batch, naming it; limits on batches, fields and queries", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const t = base()
      const track = (events: Array<unknown>) => call("POST", `${s.path}/insights/events`, { token: s.token, body: { events } })
      const bad = yield* track([event(t), event(t, { visitor: "" })])
      expect([bad.status, bad.body.error.message]).toEqual([400, "events.1.session.visitorId: must not be empty"])
      expect((yield* track([])).status).toBe(400)
      expect((yield* track(Array.from({ length: 101 }, (_, i) => event(t, { visitor: `v${i}` })))).status).toBe(400)
      expect((yield* track(Array.from({ length: 100 }, (_, i) => event(t, { visitor: `v${i}` })))).status).toBe(204)
      const future = yield* track([event(Date.now() + 10 * 60_000)])
      expect([future.status, future.body.error.message.startsWith("events.0.timestamp")]).toEqual([400, true])
      const search = yield* track([event(t, { type: "search_type_query" })])
      expect([search.status, search.body.error.message.startsWith("events.0.query")]).toEqual([400, true])
      const range = { from: new Date(t).toISOString(), to: new Date(t + 60_000).toISOString() }
      const aggregate = (body: unknown) => call("POST", `${s.path}/insights/events/aggregate`, { token: s.token, body })
      expect((yield* aggregate({ range, select: [{ column: "urlPath" }] })).status).toBe(400)
      expect((yield* aggregate({ range, groupBy: [{ column: "visitorGeoPoint" }] })).status).toBe(400)
      expect((yield* aggregate({ range, limit: 1001 })).status).toBe(400)
      expect((yield* aggregate({ range: "lastDecade" })).status).toBe(400)
      expect((yield* aggregate({ range: { from: range.to, to: range.from } })).status).toBe(400)
      expect((yield* aggregate({ range: "last7Days" })).status).toBe(200)
    }))

  it.effect("visitor segments follow the adaptive schema's deterministic claims, most visitors first", () =>
    Effect.gen(function*() {
      const s = yield* setup
      expect(
        (yield* call("PUT", `${s.path}/adaptive-schema`, {
          token: s.token,
          body: {
            jsonSchema: {
              type: "object",
              properties: {
                plan: { type: "string", description: "Plan", enum: ["free", "pro"] },
                beta: { type: "boolean", description: "Beta" }
              },
              additionalProperties: false
            }
          }
        })).status
      ).toBe(200)
      const t = base()
      const events = [
        event(t, { visitor: "p1", claims: { plan: "pro", beta: true } }),
        event(t, { visitor: "p2", session: "p2", claims: { plan: "pro", beta: true } }),
        event(t, { visitor: "f1", claims: { plan: "free", beta: false } }),
        event(t, { visitor: "x1", claims: { plan: "gold" } }),
        event(t, { visitor: "n1" })
      ]
      expect((yield* call("POST", `${s.path}/insights/events`, { token: s.token, body: { events } })).status).toBe(204)
      const segments = yield* call("GET", `${s.path}/insights/visitor-segments`, { token: s.token })
      expect(segments.status).toBe(200)
      expect(segments.body.items.map((x: { title: string; visitors: number; claims: unknown }) => [x.title, x.visitors, x.claims])).toEqual(
        [
          ["All visitors", 2, {}],
          ["plan: pro, beta: true", 2, { plan: "pro", beta: true }],
          ["plan: free, beta: false", 1, { plan: "free", beta: false }]
        ]
      )
    }))

  it.effect("members read and track; guests and other organizations do not", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const reader = yield* newUser("Rae Reader")
      yield* addMember(s.organizationId, s.admin, reader, "read")
      const guest = yield* newUser("Gil Guest")
      yield* addMember(s.organizationId, s.admin, guest, null)
      const stranger = yield* newUser("Sol Stranger")
      const body = { events: [event(base())] }
      expect((yield* call("POST", `${s.path}/insights/events`, { token: reader.token, body })).status).toBe(204)
      expect((yield* call("GET", `${s.path}/insights/visitor-segments`, { token: reader.token })).status).toBe(200)
      for (const token of [guest.token, stranger.token]) {
        expect((yield* call("POST", `${s.path}/insights/events`, { token, body })).status).toBe(404)
        expect((yield* call("GET", `${s.path}/insights/visitor-segments`, { token })).status).toBe(404)
      }
    }))

  it.effect("visitors track without a token on published sites their visibility admits; claims come only from a visitor token", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const t = base()
      // Each visit its own session: an event sent again with its timestamp would be one event.
      let visits = 0
      const anonymous = (headers: Record<string, string> = {}, claims?: unknown) =>
        Effect.map(
          call("POST", `${s.path}/insights/events`, {
            headers,
            body: { events: [event(t, { visitor: "anon", session: `visit-${++visits}`, claims })] }
          }),
          (answer) => answer.status
        )
      const visitorsCount = Effect.map(
        call("POST", `${s.path}/insights/events/aggregate`, {
          token: s.token,
          body: { range: { from: new Date(t).toISOString(), to: new Date(t + 1).toISOString() }, select: [{ column: "eventsCount" }] }
        }),
        (answer) => answer.body.columns[0].values[0] as number
      )
      // Unpublished, the site is not there for visitors.
      expect(yield* anonymous()).toBe(404)
      expect((yield* call("POST", `${s.path}/publish`, { token: s.token })).status).toBe(200)
      expect(yield* anonymous({}, { plan: "pro" })).toBe(204)
      expect(yield* visitorsCount).toBe(1)

      // Share-link sites need an active key, in the header or the site's cookie.
      expect((yield* call("PATCH", s.path, { token: s.token, body: { visibility: "share-link" } })).status).toBe(200)
      const link = yield* call("POST", `${s.path}/share-links`, { token: s.token, body: { name: "Partners" } })
      const key = /\?share=([A-Za-z0-9]{32})$/.exec(link.body.urls.published)?.[1] ?? ""
      const siteId = s.path.split("/").at(-1)!
      expect(yield* anonymous()).toBe(404)
      expect(yield* anonymous({ "x-octavo-share-key": "x".repeat(32) })).toBe(404)
      expect(yield* anonymous({ "x-octavo-share-key": key })).toBe(204)
      expect(yield* anonymous({ cookie: `octavo_share_${siteId}=${key}` })).toBe(204)
      yield* call("PATCH", `${s.path}/share-links/${link.body.id}`, { token: s.token, body: { active: false } })
      expect(yield* anonymous({ "x-octavo-share-key": key })).toBe(404)

      // Visitor-auth sites need a visitor token signed with the site's secret, whose claims are stored.
      expect((yield* call("PATCH", s.path, { token: s.token, body: { visibility: "visitor-auth" } })).status).toBe(200)
      const secret = (yield* call("GET", `${s.path}/publishing/auth`, { token: s.token })).body.privateKey as string
      const sign = (key: string, expires: string | number) =>
        Effect.promise(() =>
          new SignJWT({ plan: "enterprise" }).setProtectedHeader({ alg: "HS256" }).setExpirationTime(expires).sign(
            new TextEncoder().encode(key)
          )
        )
      expect(yield* anonymous()).toBe(404)
      expect(yield* anonymous({ "x-octavo-visitor-token": yield* sign("wrong secret of the right length!!", "1h") })).toBe(404)
      expect(yield* anonymous({ "x-octavo-visitor-token": yield* sign(secret, Math.floor(Date.now() / 1000) - 120) })).toBe(404)
      expect(yield* anonymous({ "x-octavo-visitor-token": yield* sign(secret, "1h") }, { plan: "free" })).toBe(204)
      expect(yield* anonymous({ cookie: `octavo_visitor_${siteId}=${yield* sign(secret, "1h")}` })).toBe(204)
      const claims = yield* call("POST", `${s.path}/insights/events/aggregate`, {
        token: s.token,
        body: {
          range: { from: new Date(t).toISOString(), to: new Date(t + 1).toISOString() },
          groupBy: [{ column: "visitorClaim", claim: "plan" }],
          order: { by: { column: "visitorClaim", claim: "plan" }, direction: "asc" }
        }
      })
      // The events' own claims were never stored; the visitor token's were.
      expect(columns(claims)).toEqual([["visitorClaim", [null, "enterprise"]], ["eventsCount", [3, 2]]])
      expect(claims.body.columns[0].claim).toBe("plan")
    }))

  it.effect("visitors' batches are limited per address: 429 with Retry-After past the budget; members are not", () =>
    Effect.gen(function*() {
      const s = yield* setup
      expect((yield* call("POST", `${s.path}/publish`, { token: s.token })).status).toBe(200)
      const body = { events: [event(base())] }
      let refused: Answer | undefined
      for (let i = 0; i < 61 && refused === undefined; i++) {
        const answer = yield* call("POST", `${s.path}/insights/events`, { body })
        if (answer.status !== 204) refused = answer
      }
      expect(refused?.status).toBe(429)
      expect(Number(refused?.headers["retry-after"])).toBeGreaterThan(0)
      expect(refused?.headers["x-ratelimit-limit"]).toBe("60")
      expect((yield* call("POST", `${s.path}/insights/events`, { token: s.token, body })).status).toBe(204)
    }))
})
