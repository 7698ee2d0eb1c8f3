import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import * as fc from "fast-check"
import { storedEvent } from "./contract/events.js"
import type { InvalidInput } from "../src/shared/Errors.js"
import type { PageId, SiteId, SpaceId } from "../src/shared/Ids.js"
import type { AggregateInput } from "../src/insights/Aggregate.js"
import {
  addUtcMonths,
  AggregateInput as AggregateInputSchema,
  bucketStart,
  evaluateQuery,
  evaluateSegments,
  resolveQuery
} from "../src/insights/Aggregate.js"
import type { StoredEvent } from "../src/insights/Event.js"
import type { QueryColumn, ResolvedQuery } from "../src/insights/Query.js"

const site = "site1" as SiteId
const other = "site2" as SiteId
/** A page of a space, as a filter names it. */
const pageRef = (page: string, space: string) => ({ page: page as PageId, space: space as SpaceId })
const now = new Date("2026-11-24T12:00:00.000Z")

const resolve = (input: AggregateInput): ResolvedQuery => Effect.runSync(resolveQuery(site, input, now))
const refusal = (input: AggregateInput): { field: string; rule: string } => {
  const result = Effect.runSync(Effect.either(resolveQuery(site, input, now)))
  if (Either.isRight(result)) throw new Error("expected a refusal")
  const error: InvalidInput = result.left
  return { field: error.field, rule: error.rule }
}
const refusedAt = (input: AggregateInput) => refusal(input).field

const base = { range: "last30Days" } as const satisfies AggregateInput

describe("AggregateInput schema", () => {
  it("decodes GitBook's body and refuses a limit out of 1-1000", () => {
    const decode = Schema.decodeUnknownEither(AggregateInputSchema)
    expect(Either.isRight(decode({ range: "last7Days", select: [{ column: "eventsCount" }], limit: 1000 }))).toBe(true)
    expect(Either.isRight(decode({ range: { from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z" } }))).toBe(true)
    expect(Either.isLeft(decode({ range: "last7Days", limit: 1001 }))).toBe(true)
    expect(Either.isLeft(decode({ range: "last7Days", limit: 0 }))).toBe(true)
    expect(Either.isLeft(decode({ range: "yesterday" }))).toBe(true)
    expect(Either.isLeft(decode({ range: "last7Days", select: [{ column: "nope" }] }))).toBe(true)
    expect(Either.isLeft(decode({}))).toBe(true)
  })
})

describe("resolveQuery", () => {
  it("defaults select to groupBy plus eventsCount, datetime to day, limit to 1000, order to datetime asc", () => {
    const q = resolve({ ...base, groupBy: [{ column: "datetime" }, { column: "urlPath" }] })
    expect(q.select).toEqual([
      { kind: "datetime", interval: "day" },
      { kind: "field", column: "urlPath" },
      { kind: "metric", metric: "eventsCount" }
    ])
    expect(q.groupBy).toEqual([{ kind: "datetime", interval: "day" }, { kind: "field", column: "urlPath" }])
    expect(q.order).toEqual({ by: 0, direction: "asc" })
    expect(q.limit).toBe(1000)
    expect(q.siteId).toBe(site)
    expect(q.where).toEqual([])
  })

  it("orders by the first metric desc without datetime, else the first column asc", () => {
    expect(
      resolve({ ...base, groupBy: [{ column: "page" }], select: [{ column: "page" }, { column: "visitorsCount" }] })
        .order
    ).toEqual({ by: 1, direction: "desc" })
    expect(resolve({ ...base, groupBy: [{ column: "page" }], select: [{ column: "page" }] }).order).toEqual({
      by: 0,
      direction: "asc"
    })
    expect(resolve(base).order).toEqual({ by: 0, direction: "desc" })
  })

  it("matches order.by against the selected columns, interval and claim included", () => {
    const q = resolve({
      ...base,
      groupBy: [{ column: "datetime", interval: "week" }, { column: "visitorClaim", claim: "plan" }],
      select: [{ column: "datetime", interval: "week" }, { column: "visitorClaim", claim: "plan" }, {
        column: "eventsCount"
      }],
      order: { by: { column: "visitorClaim", claim: "plan" }, direction: "desc" }
    })
    expect(q.order).toEqual({ by: 1, direction: "desc" })
    expect(
      refusedAt({
        ...base,
        groupBy: [{ column: "datetime", interval: "week" }],
        order: { by: { column: "datetime" }, direction: "asc" }
      })
    ).toBe("order.by")
    expect(refusedAt({ ...base, order: { by: { column: "visitorsCount" }, direction: "asc" } })).toBe("order.by")
    expect(refusedAt({ ...base, order: { by: { column: "visitorGeoPoint" }, direction: "asc" } })).toBe(
      "order.by.column"
    )
  })

  it("refuses visitorGeoPoint wherever it appears", () => {
    expect(refusedAt({ ...base, select: [{ column: "eventsCount" }, { column: "visitorGeoPoint", precision: 3 }] }))
      .toBe("select.1.column")
    expect(refusedAt({ ...base, groupBy: [{ column: "visitorGeoPoint" }] })).toBe("groupBy.0.column")
    expect(refusedAt({ ...base, where: [{ column: "visitorGeoPoint", values: [null] }] })).toBe("where.0.column")
  })

  it("requires a selected dimension to be grouped by, and groupBy to hold dimensions only", () => {
    expect(
      refusedAt({
        ...base,
        groupBy: [{ column: "page" }],
        select: [{ column: "page" }, { column: "eventsCount" }, { column: "urlPath" }]
      })
    ).toBe("select.2.column")
    expect(
      refusedAt({
        ...base,
        groupBy: [{ column: "datetime", interval: "hour" }],
        select: [{ column: "datetime" }]
      })
    ).toBe("select.0.column")
    expect(refusedAt({ ...base, groupBy: [{ column: "page" }, { column: "visitorsCount" }] })).toBe(
      "groupBy.1.column"
    )
    expect(refusedAt({ ...base, select: [] })).toBe("select")
  })

  it("needs a claim, a dot path of 1-256 characters, for visitorClaim", () => {
    expect(refusedAt({ ...base, groupBy: [{ column: "visitorClaim" }] })).toBe("groupBy.0.claim")
    expect(refusedAt({ ...base, groupBy: [{ column: "visitorClaim", claim: "" }] })).toBe("groupBy.0.claim")
    expect(refusedAt({ ...base, groupBy: [{ column: "visitorClaim", claim: "a..b" }] })).toBe("groupBy.0.claim")
    expect(refusedAt({ ...base, groupBy: [{ column: "visitorClaim", claim: "a".repeat(257) }] })).toBe(
      "groupBy.0.claim"
    )
    expect(resolve({ ...base, groupBy: [{ column: "visitorClaim", claim: "a".repeat(256) }] }).groupBy).toEqual([
      { kind: "visitorClaim", claim: "a".repeat(256) }
    ])
    expect(refusedAt({ ...base, where: [{ column: "visitorClaim", values: ["x"] }] })).toBe("where.0.claim")
  })

  it("maps GitBook's names onto stored fields, and the columns Octavo lacks onto none", () => {
    const q = resolve({
      ...base,
      groupBy: [
        { column: "eventType" },
        { column: "eventPageNotFoundType" },
        { column: "visitorClaimProperty" },
        { column: "dayOfWeek" },
        { column: "hourOfDay" }
      ]
    })
    expect(q.groupBy).toEqual([
      { kind: "field", column: "eventType" },
      { kind: "none", column: "eventPageNotFoundType" },
      { kind: "none", column: "visitorClaimProperty" },
      { kind: "dayOfWeek" },
      { kind: "hourOfDay" }
    ])
  })

  it("resolves filters: in by default, null values, range operators with one value, timestamps to ms", () => {
    const q = resolve({
      ...base,
      where: [
        { column: "urlPath", values: ["/a", null] },
        { column: "visitorBot", operator: "notIn", values: ["", "googlebot"] },
        { column: "datetime", operator: "greaterThanOrEqual", values: ["2026-11-01T01:00:00+01:00"] },
        { column: "hourOfDay", operator: "lessThan", values: [12] },
        { column: "eventsCount", operator: "greaterThan", values: [2] },
        { column: "page", values: [pageRef("p1", "s1"), null] },
        { column: "visitorAuthenticated", values: [true] }
      ]
    })
    expect(q.where).toEqual([
      { column: { kind: "field", column: "urlPath" }, operator: "in", values: ["/a", null] },
      { column: { kind: "field", column: "visitorBot" }, operator: "notIn", values: [null, "googlebot"] },
      {
        column: { kind: "datetime", interval: "day" },
        operator: "greaterThanOrEqual",
        values: [Date.parse("2026-11-01T00:00:00Z")]
      },
      { column: { kind: "hourOfDay" }, operator: "lessThan", values: [12] },
      { column: { kind: "metric", metric: "eventsCount" }, operator: "greaterThan", values: [2] },
      { column: { kind: "field", column: "page" }, operator: "in", values: ["p1", null] },
      { column: { kind: "field", column: "visitorAuthenticated" }, operator: "in", values: [true] }
    ])
  })

  it("refuses bad filters with their field", () => {
    const at = (filter: AggregateInput["where"] & {}) => refusedAt({ ...base, where: filter })
    expect(at([{ column: "urlPath", values: [] }])).toBe("where.0.values")
    expect(at([{ column: "page", values: ["p"] }, { column: "urlPath", operator: "greaterThan", values: ["/a"] }]))
      .toBe("where.1.operator")
    expect(at([{ column: "hourOfDay", operator: "greaterThan", values: [1, 2] }])).toBe("where.0.values")
    expect(at([{ column: "hourOfDay", values: [24] }])).toBe("where.0.values")
    expect(at([{ column: "dayOfWeek", values: [0] }])).toBe("where.0.values")
    expect(at([{ column: "dayOfWeek", values: [1.5] }])).toBe("where.0.values")
    expect(at([{ column: "datetime", operator: "lessThan", values: ["yesterday"] }])).toBe("where.0.values")
    expect(at([{ column: "datetime", operator: "lessThan", values: ["2026-11-01"] }])).toBe("where.0.values")
    expect(at([{ column: "eventsCount", values: [1] }])).toBe("where.0.operator")
    expect(at([{ column: "eventsCount", operator: "greaterThan", values: ["1"] }])).toBe("where.0.values")
    expect(at([{ column: "pageFeedbackRating", operator: "greaterThan", values: [1] }])).toBe("where.0.operator")
    expect(at([{ column: "askResponseRating", operator: "lessThan", values: [1] }])).toBe("where.0.operator")
    expect(at([{ column: "visitorAuthenticated", values: ["true"] }])).toBe("where.0.values")
    expect(at([{ column: "urlPath", values: [3] }])).toBe("where.0.values")
    expect(at([{ column: "urlPath", values: [pageRef("p", "s")] }])).toBe("where.0.values")
    expect(at([{ column: "visitorClaim", claim: "plan", values: [true] }])).toBe("where.0.values")
    expect(refusal({ ...base, where: [{ column: "urlPath", values: [] }] }).rule).toBe("needs at least one value")
  })

  it("makes rolling ranges end now: 24 h days, calendar months and years", () => {
    const range = (r: AggregateInput["range"]) => resolve({ range: r }).range
    expect(range("last24Hours")).toEqual({ from: new Date("2026-11-23T12:00:00.000Z"), to: now })
    expect(range("last7Days")).toEqual({ from: new Date("2026-11-17T12:00:00.000Z"), to: now })
    expect(range("last30Days")).toEqual({ from: new Date("2026-10-25T12:00:00.000Z"), to: now })
    expect(range("last3Months")).toEqual({ from: new Date("2026-08-24T12:00:00.000Z"), to: now })
    expect(range("lastYear")).toEqual({ from: new Date("2025-11-24T12:00:00.000Z"), to: now })
    expect(addUtcMonths(new Date("2026-05-31T10:00:00Z"), -3)).toEqual(new Date("2026-02-28T10:00:00Z"))
    expect(addUtcMonths(new Date("2028-02-29T10:00:00Z"), -12)).toEqual(new Date("2027-02-28T10:00:00Z"))
  })

  it("takes a custom range half-open, from before to, at most one calendar year", () => {
    expect(resolve({ range: { from: "2025-03-01T00:00:00Z", to: "2026-03-01T00:00:00.000Z" } }).range).toEqual({
      from: new Date("2025-03-01T00:00:00Z"),
      to: new Date("2026-03-01T00:00:00Z")
    })
    expect(refusedAt({ range: { from: "2025-03-01T00:00:00Z", to: "2026-03-01T00:00:00.001Z" } })).toBe("range.to")
    expect(refusedAt({ range: { from: "2026-03-01T00:00:00Z", to: "2026-03-01T00:00:00Z" } })).toBe("range.to")
    expect(refusedAt({ range: { from: "2026-03-02T00:00:00Z", to: "2026-03-01T00:00:00Z" } })).toBe("range.to")
    expect(refusedAt({ range: { from: "March 1st", to: "2026-03-01T00:00:00Z" } })).toBe("range.from")
    expect(refusedAt({ range: { from: "2026-03-01T00:00:00Z", to: "2026-13-01T00:00:00Z" } })).toBe("range.to")
  })
})

// ---------------------------------------------------------------------------------------------

let counter = 0
const event = (fields: Partial<StoredEvent> & { readonly timestamp: Date }): StoredEvent =>
  storedEvent({ id: `e${++counter}`, siteId: site, space: "sa", page: "pa", ...fields })
const at = (iso: string) => new Date(iso)
// Three pages of one space, and a URL that resolved to no page (a 404 names no space either).
const pageA = { urlPath: "/a", space: "sa", page: "pa" }
const pageB = { urlPath: "/b", space: "sa", page: "pb", url: "https://docs.example.com/b" }
const pageC = { urlPath: "/c", space: "sa", page: "pc", url: "https://docs.example.com/c" }
const missing = { urlPath: "/missing", space: null, page: null, url: "https://docs.example.com/missing" }
const pa = { page: "pa", space: "sa" }
const pb = { page: "pb", space: "sa" }
const pc = { page: "pc", space: "sa" }

// 2026-11-16 is a Monday; 2026-11-23 is a Monday too.
const events: ReadonlyArray<StoredEvent> = [
  event({ ...pageA, timestamp: at("2026-11-16T09:00:00Z"), visitorId: "v1", sessionId: "s1" }),
  event({ ...pageA, timestamp: at("2026-11-16T09:05:00Z"), visitorId: "v1", sessionId: "s1" }),
  event({
    ...pageB,
    timestamp: at("2026-11-16T10:00:00Z"),
    visitorId: "v2",
    sessionId: "s2",
    visitorBrowser: "firefox",
    visitorClaims: { plan: "pro", org: { tier: 2, beta: true } },
    visitorAuthenticated: true
  }),
  event({
    ...pageA,
    timestamp: at("2026-11-17T08:00:00Z"),
    visitorId: "v2",
    sessionId: "s3",
    visitorDevice: "mobile",
    visitorBrowser: "safari",
    visitorOS: "ios",
    visitorClaims: { plan: "pro", org: { tier: 2, beta: true } },
    visitorAuthenticated: true
  }),
  event({ ...pageB, timestamp: at("2026-11-17T23:59:59.999Z"), visitorId: "v3", sessionId: "s4" }),
  event({
    ...pageC,
    timestamp: at("2026-11-18T00:00:00Z"),
    visitorId: "v3",
    sessionId: "s4",
    visitorBot: "googlebot"
  }),
  event({
    ...missing,
    timestamp: at("2026-11-18T12:00:00Z"),
    visitorId: "v4",
    sessionId: "s5",
    visitorDevice: "mobile",
    visitorBrowser: "chrome",
    visitorOS: "android",
    visitorClaims: { plan: "free", org: { tier: 1, beta: false } }
  }),
  event({
    ...pageA,
    timestamp: at("2026-11-19T07:00:00Z"),
    visitorId: "v4",
    sessionId: "s5",
    visitorDevice: "mobile",
    visitorOS: "android",
    visitorClaims: { plan: "free", org: { tier: 1, beta: false } }
  }),
  event({
    ...pageA,
    type: "page_post_feedback",
    timestamp: at("2026-11-19T07:01:00Z"),
    visitorId: "v4",
    sessionId: "s5",
    visitorDevice: "mobile",
    visitorOS: "android",
    pageFeedbackRating: "good",
    visitorClaims: { plan: "free", org: { tier: 1, beta: false } }
  }),
  event({
    ...pageB,
    type: "page_post_feedback",
    timestamp: at("2026-11-20T15:00:00Z"),
    visitorId: "v1",
    sessionId: "s6",
    pageFeedbackRating: "bad"
  }),
  event({
    ...pageB,
    type: "page_post_feedback",
    timestamp: at("2026-11-20T15:30:00Z"),
    visitorId: "v5",
    sessionId: "s7",
    pageFeedbackRating: "ok",
    visitorClaims: { plan: 3 }
  }),
  event({ ...pageC, timestamp: at("2026-11-22T23:00:00Z"), visitorId: "v5", sessionId: "s7" }),
  event({
    ...pageC,
    type: "ask_rate_response",
    timestamp: at("2026-11-23T00:00:00Z"),
    visitorId: "v5",
    sessionId: "s8",
    askResponseRating: 1,
    searchQuery: "how"
  }),
  event({
    ...pageC,
    type: "ask_rate_response",
    timestamp: at("2026-11-23T01:00:00Z"),
    visitorId: "v6",
    sessionId: "s9",
    askResponseRating: -1,
    searchQuery: "why"
  }),
  event({
    ...pageC,
    type: "ask_rate_response",
    timestamp: at("2026-11-23T02:00:00Z"),
    visitorId: "v6",
    sessionId: "s9",
    askResponseRating: 1,
    searchQuery: "what"
  }),
  event({ ...pageA, timestamp: at("2026-11-23T09:00:00Z"), visitorId: "v7", sessionId: "s10" }),
  event({ ...pageB, timestamp: at("2026-11-23T11:00:00Z"), visitorId: "v7", sessionId: "s10" }),
  // Outside: another site, the range's end (exclusive), before its start.
  event({ ...pageA, timestamp: at("2026-11-20T10:00:00Z"), siteId: other }),
  event({ ...pageA, timestamp: at("2026-11-24T00:00:00Z") }),
  event({ ...pageA, timestamp: at("2026-10-31T23:59:59.999Z") })
]
const week: AggregateInput["range"] = { from: "2026-11-01T00:00:00Z", to: "2026-11-24T00:00:00Z" }
const run = (input: Omit<AggregateInput, "range"> & { readonly range?: AggregateInput["range"] }) =>
  evaluateQuery(events, resolve({ range: week, ...input }))

describe("evaluateQuery", () => {
  it("counts page views per day, in days order", () => {
    expect(run({ groupBy: [{ column: "datetime" }], where: [{ column: "eventType", values: ["page_view"] }] }))
      .toEqual([
        ["2026-11-16T00:00:00.000Z", 3],
        ["2026-11-17T00:00:00.000Z", 2],
        ["2026-11-18T00:00:00.000Z", 2],
        ["2026-11-19T00:00:00.000Z", 1],
        ["2026-11-22T00:00:00.000Z", 1],
        ["2026-11-23T00:00:00.000Z", 2]
      ])
  })

  it("ranks pages by visitors", () => {
    expect(run({
      groupBy: [{ column: "urlPath" }],
      select: [{ column: "urlPath" }, { column: "visitorsCount" }, { column: "eventsCount" }]
    })).toEqual([
      ["/b", 5, 5],
      ["/a", 4, 6],
      ["/c", 3, 5],
      ["/missing", 1, 1]
    ])
  })

  it("groups by device and browser", () => {
    expect(run({ groupBy: [{ column: "visitorDevice" }, { column: "visitorBrowser" }] })).toEqual([
      ["desktop", "chrome", 12],
      ["mobile", "chrome", 3],
      ["desktop", "firefox", 1],
      ["mobile", "safari", 1]
    ])
  })

  it("answers one row without groupBy, even when nothing matches", () => {
    expect(run({ select: [{ column: "eventsCount" }, { column: "sessionsCount" }, { column: "visitorsCount" }] }))
      .toEqual([[17, 10, 7]])
    expect(run({ where: [{ column: "urlPath", values: ["/nowhere"] }] })).toEqual([[0]])
  })

  it("filters notIn with null: a missing page is excluded, and kept by notIn without null", () => {
    expect(run({ groupBy: [{ column: "page" }], where: [{ column: "page", operator: "notIn", values: [null, "pc"] }] }))
      .toEqual([[pa, 6], [pb, 5]])
    expect(run({ groupBy: [{ column: "page" }], where: [{ column: "page", operator: "notIn", values: ["pc"] }] }))
      .toEqual([[pa, 6], [pb, 5], [null, 1]])
    expect(run({ groupBy: [{ column: "urlPath" }], where: [{ column: "page", values: [null] }] })).toEqual([[
      "/missing",
      1
    ]])
    expect(run({ where: [{ column: "visitorBot", values: ["googlebot"] }] })).toEqual([[1]])
    expect(run({ where: [{ column: "visitorBot", values: [""] }] })).toEqual([[16]])
  })

  it("keeps groups by their metrics (HAVING)", () => {
    expect(run({
      groupBy: [{ column: "urlPath" }],
      where: [{ column: "eventsCount", operator: "greaterThanOrEqual", values: [5] }]
    })).toEqual([["/a", 6], ["/b", 5], ["/c", 5]])
    expect(run({
      groupBy: [{ column: "urlPath" }],
      select: [{ column: "urlPath" }],
      where: [{ column: "visitorsCount", operator: "lessThan", values: [4] }]
    })).toEqual([["/c"], ["/missing"]])
    expect(run({ where: [{ column: "eventsCount", operator: "greaterThan", values: [17] }] })).toEqual([])
  })

  it("filters by datetime, dayOfWeek and hourOfDay ranges", () => {
    expect(run({ where: [{ column: "datetime", operator: "greaterThanOrEqual", values: ["2026-11-23T00:00:00Z"] }] }))
      .toEqual([[5]])
    expect(run({ where: [{ column: "datetime", operator: "lessThan", values: ["2026-11-17T00:00:00+01:00"] }] }))
      .toEqual([[3]])
    expect(run({ groupBy: [{ column: "dayOfWeek" }], where: [{ column: "dayOfWeek", operator: "greaterThan", values: [4] }] }))
      .toEqual([[5, 2], [7, 1]])
    expect(run({ groupBy: [{ column: "hourOfDay" }], where: [{ column: "hourOfDay", operator: "lessThanOrEqual", values: [1] }] }))
      .toEqual([[0, 2], [1, 1]])
  })

  it("buckets weeks from Monday and months from the first, in UTC", () => {
    expect(run({ groupBy: [{ column: "datetime", interval: "week" }] })).toEqual([
      ["2026-11-16T00:00:00.000Z", 12],
      ["2026-11-23T00:00:00.000Z", 5]
    ])
    expect(run({
      range: { from: "2026-10-01T00:00:00Z", to: "2026-11-24T00:00:00Z" },
      groupBy: [{ column: "datetime", interval: "month" }]
    })).toEqual([
      ["2026-10-01T00:00:00.000Z", 1],
      ["2026-11-01T00:00:00.000Z", 17]
    ])
    expect(run({
      groupBy: [{ column: "datetime", interval: "hour" }],
      where: [{ column: "eventType", values: ["ask_rate_response"] }]
    })).toEqual([
      ["2026-11-23T00:00:00.000Z", 1],
      ["2026-11-23T01:00:00.000Z", 1],
      ["2026-11-23T02:00:00.000Z", 1]
    ])
    expect(bucketStart(at("2026-11-22T23:59:59.999Z"), "week")).toBe("2026-11-16T00:00:00.000Z")
    expect(bucketStart(at("2026-11-23T00:00:00.000Z"), "week")).toBe("2026-11-23T00:00:00.000Z")
    expect(bucketStart(at("2027-01-03T12:00:00Z"), "week")).toBe("2026-12-28T00:00:00.000Z")
  })

  it("groups by a visitor claim as a string, null when absent", () => {
    expect(run({
      groupBy: [{ column: "visitorClaim", claim: "plan" }],
      select: [{ column: "visitorClaim", claim: "plan" }, { column: "visitorsCount" }]
    })).toEqual([[null, 5], ["3", 1], ["free", 1], ["pro", 1]])
    expect(run({
      groupBy: [{ column: "visitorClaim", claim: "org.beta" }],
      order: { by: { column: "visitorClaim", claim: "org.beta" }, direction: "asc" }
    })).toEqual([[null, 12], ["false", 3], ["true", 2]])
    expect(run({
      groupBy: [{ column: "visitorClaim", claim: "org" }],
      where: [{ column: "visitorClaim", claim: "org.tier", values: ["2"] }]
    })).toEqual([["{\"tier\":2,\"beta\":true}", 2]])
    expect(run({ where: [{ column: "visitorClaim", claim: "plan.toString", values: [null] }] })).toEqual([[17]])
    expect(run({ where: [{ column: "visitorClaim", claim: "constructor", values: [null] }] })).toEqual([[17]])
  })

  it("breaks down page feedback and answer ratings", () => {
    expect(run({
      groupBy: [{ column: "urlPath" }],
      select: [{ column: "urlPath" }, { column: "pageFeedbackRating" }, { column: "askResponseRating" }]
    })).toEqual([
      ["/b", { ok: 1, good: 0, bad: 1 }, { positive: 0, negative: 0 }],
      ["/a", { ok: 0, good: 1, bad: 0 }, { positive: 0, negative: 0 }],
      ["/c", { ok: 0, good: 0, bad: 0 }, { positive: 2, negative: 1 }],
      ["/missing", { ok: 0, good: 0, bad: 0 }, { positive: 0, negative: 0 }]
    ])
    expect(run({ groupBy: [{ column: "eventAskResponseRating" }], where: [{ column: "eventAskResponseRating", values: [1, -1] }] }))
      .toEqual([[1, 2], [-1, 1]])
    expect(run({ groupBy: [{ column: "visitorAuthenticated" }], order: { by: { column: "visitorAuthenticated" }, direction: "desc" } }))
      .toEqual([[true, 2], [false, 15]])
  })

  it("orders by the asked column, nulls first ascending and last descending, then limits", () => {
    const byPage = (direction: "asc" | "desc", limit?: number) =>
      run({
        groupBy: [{ column: "page" }],
        order: { by: { column: "page" }, direction },
        ...(limit === undefined ? {} : { limit })
      })
    expect(byPage("asc")).toEqual([[null, 1], [pa, 6], [pb, 5], [pc, 5]])
    expect(byPage("desc")).toEqual([[pc, 5], [pb, 5], [pa, 6], [null, 1]])
    expect(byPage("desc", 2)).toEqual([[pc, 5], [pb, 5]])
    expect(run({ groupBy: [{ column: "urlPath" }], order: { by: { column: "eventsCount" }, direction: "asc" }, limit: 3 }))
      .toEqual([["/missing", 1], ["/b", 5], ["/c", 5]])
    // Ties on the order column fall back to every selected column ascending, in select order.
    expect(run({
      groupBy: [{ column: "visitorOS" }, { column: "visitorDevice" }],
      select: [{ column: "visitorsCount" }, { column: "visitorOS" }, { column: "visitorDevice" }],
      where: [{ column: "visitorOS", operator: "notIn", values: ["macos"] }]
    })).toEqual([[1, "android", "mobile"], [1, "ios", "mobile"]])
  })

  it("answers a page as GitBook does, a page of its space, grouped and ordered by page id then space", () => {
    const spaces = [
      event({ timestamp: at("2026-11-20T10:00:00Z"), space: "s2", page: "p1" }),
      event({ timestamp: at("2026-11-20T10:01:00Z"), space: "s1", page: "p1" }),
      event({ timestamp: at("2026-11-20T10:02:00Z"), space: "s1", page: "p1" }),
      event({ timestamp: at("2026-11-20T10:03:00Z"), space: "s1", page: "p0" }),
      // A space without a page; no space, with or without a page id, is one null.
      event({ timestamp: at("2026-11-20T10:04:00Z"), space: "s1", page: null }),
      event({ timestamp: at("2026-11-20T10:05:00Z"), space: null, page: "p1" }),
      event({ timestamp: at("2026-11-20T10:06:00Z"), space: null, page: null })
    ]
    const query = (input: Omit<AggregateInput, "range">) => evaluateQuery(spaces, resolve({ range: week, ...input }))
    expect(query({ groupBy: [{ column: "page" }], order: { by: { column: "page" }, direction: "asc" } })).toEqual([
      [null, 2],
      [{ page: null, space: "s1" }, 1],
      [{ page: "p0", space: "s1" }, 1],
      [{ page: "p1", space: "s1" }, 2],
      [{ page: "p1", space: "s2" }, 1]
    ])
    expect(query({ groupBy: [{ column: "page" }], order: { by: { column: "page" }, direction: "desc" }, limit: 2 }))
      .toEqual([[{ page: "p1", space: "s2" }, 1], [{ page: "p1", space: "s1" }, 2]])
    // A filter matches the page id alone, whatever the space; null matches no page.
    expect(query({ groupBy: [{ column: "page" }], where: [{ column: "page", values: [pageRef("p1", "s1")] }] }))
      .toEqual([[{ page: "p1", space: "s1" }, 2], [null, 1], [{ page: "p1", space: "s2" }, 1]])
    expect(query({ groupBy: [{ column: "page" }], where: [{ column: "page", values: [null] }] }))
      .toEqual([[null, 1], [{ page: null, space: "s1" }, 1]])
  })

  it("groups by columns Octavo lacks as null", () => {
    expect(run({ groupBy: [{ column: "eventPageNotFoundType" }] })).toEqual([[null, 17]])
  })

  it("treats every event alike whatever the order it comes in", () => {
    const query = resolve({
      range: week,
      groupBy: [{ column: "visitorDevice" }, { column: "datetime", interval: "week" }],
      select: [{ column: "datetime", interval: "week" }, { column: "visitorDevice" }, { column: "sessionsCount" }]
    })
    const expected = evaluateQuery(events, query)
    fc.assert(
      fc.property(fc.shuffledSubarray([...events], { minLength: events.length }), (shuffled) => {
        expect(evaluateQuery(shuffled, query)).toEqual(expected)
      })
    )
  })

  it("sums to the total over any grouping", () => {
    const dims: ReadonlyArray<QueryColumn> = [
      { kind: "datetime", interval: "day" },
      { kind: "dayOfWeek" },
      { kind: "hourOfDay" },
      { kind: "field", column: "urlPath" },
      { kind: "field", column: "visitorBrowser" },
      { kind: "visitorClaim", claim: "plan" }
    ]
    fc.assert(
      fc.property(fc.subarray([...dims], { minLength: 1 }), (groupBy) => {
        const rows = evaluateQuery(events, {
          siteId: site,
          select: [...groupBy, { kind: "metric", metric: "eventsCount" }],
          groupBy,
          where: [],
          order: { by: 0, direction: "asc" },
          range: { from: at("2026-11-01T00:00:00Z"), to: at("2026-11-24T00:00:00Z") },
          limit: 1000
        })
        expect(rows.reduce((sum, row) => sum + (row[groupBy.length] as number), 0)).toBe(17)
      })
    )
  })
})

describe("evaluateSegments", () => {
  it("counts events, visitors and sessions per combination of claim values", () => {
    const segments = evaluateSegments(events, site, [["plan"], ["org", "beta"]], at("2026-11-16T00:00:00Z"))
    const sorted = [...segments].sort((a, b) => JSON.stringify(a.values).localeCompare(JSON.stringify(b.values)))
    expect(sorted).toEqual([
      { values: ["free", false], events: 3, visitors: 1, sessions: 1 },
      { values: ["pro", true], events: 2, visitors: 1, sessions: 2 },
      { values: [3, null], events: 1, visitors: 1, sessions: 1 },
      { values: [null, null], events: 12, visitors: 5, sessions: 7 }
    ].sort((a, b) => JSON.stringify(a.values).localeCompare(JSON.stringify(b.values))))
  })

  it("counts from since on, for the site only, with no paths as one segment", () => {
    expect(evaluateSegments(events, site, [], at("2026-11-23T00:00:00Z"))).toEqual([
      { values: [], events: 6, visitors: 4, sessions: 4 }
    ])
    expect(evaluateSegments(events, other, [["plan"]], at("2026-01-01T00:00:00Z"))).toEqual([
      { values: [null], events: 1, visitors: 1, sessions: 1 }
    ])
  })
})
