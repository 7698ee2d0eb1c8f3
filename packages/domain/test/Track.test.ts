import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import * as fc from "fast-check"
import { StoredEvent, type UserAgentInfo } from "../src/insights/Event.js"
import { dedupDigest, noTypeFields, type TrackContext, TrackEvent, TrackEventsInput, toStoredEvent } from "../src/insights/Track.js"
import { RecentUrls, RecentUrlsLive } from "../src/insights/Caches.js"
import { SiteId } from "../src/shared/Ids.js"
import { validate } from "../src/shared/Limits.js"

const now = new Date("2026-06-15T12:00:00.000Z")
const ua: UserAgentInfo = { browser: "firefox", device: "desktop", os: "linux", bot: null }
const context: TrackContext = {
  id: "evt_1",
  siteId: SiteId.make("site_1"),
  now,
  ua,
  visitorClaims: null,
  visitorAuthenticated: false
}

const session = (over: Record<string, unknown> = {}) => ({
  visitorId: "visitor-1",
  sessionId: "session-1",
  cookies: { theme: "dark" },
  userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  language: "fr-FR",
  referrer: "https://www.google.com/search?q=octavo",
  ...over
})

const location = (over: Record<string, unknown> = {}) => ({
  url: "https://docs.example.com/guide/start?utm_source=news&utm_medium=email&utm_campaign=launch",
  siteSection: "sec_1",
  siteSpace: "ss_1",
  siteShareKey: null,
  space: "space_1",
  revision: "rev_1",
  page: "page_1",
  ...over
})

/** The type's own fields for a valid event of each of GitBook's 20 types. */
const extras: Record<string, Record<string, unknown>> = {
  page_view: {},
  page_markdown_request: { markdownSource: "page-action" },
  search_open: {},
  search_type_query: { query: "install" },
  search_open_result: { query: "install", result: { spaceId: "space_2", pageId: "page_9" } },
  page_post_feedback: { feedback: { rating: "good" } },
  page_post_feedback_comment: { feedback: { rating: "bad", comment: "Out of date" } },
  agent_feedback: {},
  ask_question: { query: "How do I log in?", goal: "sign in" },
  ask_view: {},
  ask_rate_response: { query: "How do I log in?", rating: -1, responseId: "resp_1" },
  link_click: { link: { target: { kind: "url", url: "https://GitHub.com/octavo/repo" }, position: "header" } },
  api_client_open: { operation: { path: "/users/{id}", method: "get" } },
  api_client_request: { operation: { path: "/users", method: "post" } },
  ad_click: { ad: { domain: "ads.example.net", zoneId: "zone-1", placement: "aside" } },
  ad_display: { ad: { domain: "ads.example.net", zoneId: "zone-2", placement: "aside" } },
  trademark_click: { placement: "footer" },
  llms_request: { llmsVariant: "full" },
  mcp_request: {},
  rss_request: {}
}

const makeEvent = (type: string, over: Record<string, unknown> = {}) => ({
  type,
  session: session(),
  location: location(),
  ...extras[type],
  ...over
})

const decodeEvent = (input: unknown): TrackEvent => Schema.decodeUnknownSync(TrackEvent)(input)

const convert = (input: unknown, ctx: Partial<TrackContext> = {}) => toStoredEvent(decodeEvent(input), { ...context, ...ctx })

const stored = (input: unknown, ctx: Partial<TrackContext> = {}): StoredEvent => {
  const result = convert(input, ctx)
  if (Either.isLeft(result)) throw new Error(`refused: ${result.left.message}`)
  return result.right
}

/** The first validation error of a body as the domain reports it, or "ok". */
const firstError = (body: unknown) =>
  Effect.runSync(
    validate(TrackEventsInput)(body as TrackEventsInput).pipe(
      Effect.match({ onFailure: (e) => ({ field: e.field, rule: e.rule }), onSuccess: () => "ok" as const })
    )
  )

/** A body of four valid events whose last one is `event`, so paths start with `events.3`. */
const batchWith = (event: unknown) => ({ events: [makeEvent("page_view"), makeEvent("search_open"), makeEvent("rss_request"), event] })
const pathOf = (event: unknown) => {
  const error = firstError(batchWith(event))
  return error === "ok" ? "ok" : error.field
}

const without = (value: Record<string, unknown>, key: string) => {
  const { [key]: _, ...rest } = value
  return rest
}

describe("TrackEventsInput and toStoredEvent: one event of each type", () => {
  const expected: Record<string, Partial<StoredEvent>> = {
    page_view: {},
    page_markdown_request: { markdownSource: "page-action" },
    search_open: {},
    search_type_query: { searchQuery: "install" },
    search_open_result: { searchQuery: "install", searchResultRecordId: "page_9" },
    page_post_feedback: { pageFeedbackRating: "good" },
    page_post_feedback_comment: { pageFeedbackRating: "bad", pageFeedbackComment: "Out of date" },
    agent_feedback: {},
    ask_question: { searchQuery: "How do I log in?" },
    ask_view: {},
    ask_rate_response: { searchQuery: "How do I log in?", askResponseRating: -1 },
    link_click: {
      linkTargetKind: "url",
      linkTargetValue: "https://GitHub.com/octavo/repo",
      linkTargetDomain: "github.com",
      linkPosition: "header"
    },
    api_client_open: { apiOperationPath: "/users/{id}", apiOperationMethod: "get" },
    api_client_request: { apiOperationPath: "/users", apiOperationMethod: "post" },
    ad_click: { adDomain: "ads.example.net", adPlacement: "aside" },
    ad_display: { adDomain: "ads.example.net", adPlacement: "aside" },
    trademark_click: { trademarkPlacement: "footer" },
    llms_request: { llmsVariant: "full" },
    mcp_request: {},
    rss_request: {}
  }

  it("covers GitBook's 20 types", () => {
    expect(Object.keys(extras).length).toBe(20)
    expect(Object.keys(expected).sort()).toEqual(Object.keys(extras).sort())
  })

  for (const type of Object.keys(extras)) {
    it(`stores ${type}`, () => {
      expect(firstError({ events: [makeEvent(type)] })).toBe("ok")
      const event = stored(makeEvent(type))
      expect(event).toStrictEqual({
        id: "evt_1",
        siteId: "site_1",
        type,
        timestamp: now,
        dedupKey: null,
        visitorId: "visitor-1",
        sessionId: "session-1",
        visitorBrowser: "firefox",
        visitorDevice: "desktop",
        visitorOS: "linux",
        visitorBot: null,
        visitorLanguage: "fr-FR",
        visitorGeoCountry: null,
        visitorAuthenticated: false,
        visitorClaims: null,
        url: "https://docs.example.com/guide/start?utm_source=news&utm_medium=email&utm_campaign=launch",
        urlPath: "/guide/start",
        referrer: "https://www.google.com/search?q=octavo",
        referrerDomain: "www.google.com",
        utmSource: "news",
        utmMedium: "email",
        utmCampaign: "launch",
        utmTerm: null,
        utmContent: null,
        displayContext: "site",
        siteSection: "sec_1",
        siteSpace: "ss_1",
        siteShareKey: null,
        space: "space_1",
        revision: "rev_1",
        page: "page_1",
        ...noTypeFields,
        ...expected[type]
      })
      expect(Either.isRight(Schema.decodeUnknownEither(StoredEvent)(event))).toBe(true)
    })
  }

  it("stores a search result's record id as given", () => {
    const event = stored(makeEvent("search_open_result", { result: { recordId: "rec_7" } }))
    expect(event.searchResultRecordId).toBe("rec_7")
  })

  it("stores every kind of ContentRef a link may target", () => {
    const cases: Array<[unknown, string, string, string | null]> = [
      [{ kind: "url", url: "/relative/path" }, "url", "/relative/path", null],
      [{ kind: "url", url: "http://example.org:8080/x" }, "url", "http://example.org:8080/x", "example.org"],
      [{ kind: "page", page: "page_3", space: "space_2" }, "page", "page_3", null],
      [{ kind: "file", file: "file_1" }, "file", "file_1", null],
      [{ kind: "anchor", anchor: "install", page: "page_3" }, "anchor", "install", null],
      [{ kind: "space", space: "space_9" }, "space", "space_9", null],
      [{ kind: "user", user: "user_1" }, "user", "user_1", null],
      [{ kind: "collection", collection: "col_1" }, "collection", "col_1", null],
      [{ kind: "reusable-content", reusableContent: "rc_1" }, "reusable-content", "rc_1", null],
      [{ kind: "tag", tag: "beta" }, "tag", "beta", null],
      [{ kind: "openapi", spec: "petstore" }, "openapi", "petstore", null]
    ]
    for (const [target, kind, value, domain] of cases) {
      const event = stored(makeEvent("link_click", { link: { target, position: "content" } }))
      expect([event.linkTargetKind, event.linkTargetValue, event.linkTargetDomain, event.linkPosition]).toEqual([
        kind,
        value,
        domain,
        "content"
      ])
    }
    expect(pathOf(makeEvent("link_click", { link: { target: { kind: "email", email: "a" }, position: "content" } }))).toBe(
      "events.3.link.target.kind"
    )
  })

  it("takes the display context, the claims and the authentication given", () => {
    const event = stored(makeEvent("page_view", { location: location({ displayContext: "embed" }) }), {
      visitorClaims: { plan: "pro" },
      visitorAuthenticated: true
    })
    expect([event.displayContext, event.visitorClaims, event.visitorAuthenticated]).toEqual(["embed", { plan: "pro" }, true])
  })

  it("reads utm_term and utm_content, and a referrer without host as no domain", () => {
    const event = stored(
      makeEvent("page_view", {
        location: location({ url: "https://d.example.com/?utm_term=a%20b&utm_content=c" }),
        session: session({ referrer: "mailto:someone@example.com", language: null })
      })
    )
    expect([event.urlPath, event.utmTerm, event.utmContent, event.utmSource, event.referrerDomain, event.visitorLanguage]).toEqual([
      "/",
      "a b",
      "c",
      null,
      null,
      null
    ])
  })
})

describe("toStoredEvent: URLs parsed once while they are recent", () => {
  it("reads each URL's own path, query and referrer domain, over more distinct URLs than it keeps", () => {
    // 5,000 distinct URLs, twice over: more than the 4,096 kept, so the kept ones are let go in between.
    for (const round of [0, 1]) {
      for (let i = 0; i < 5000; i++) {
        const event = stored(makeEvent("page_view", {
          location: location({ url: `https://d${i % 7}.example.com/p/${i}?utm_source=s${i}` }),
          session: session({ referrer: `https://r${i}.example.org/from` })
        }))
        expect([event.urlPath, event.utmSource, event.referrerDomain], `round ${round}, URL ${i}`).toEqual([
          `/p/${i}`,
          `s${i}`,
          `r${i}.example.org`
        ])
      }
    }
    // Not a URL stays refused however often it comes.
    for (let i = 0; i < 3; i++)
      expect(pathOf(makeEvent("page_view", { location: location({ url: "not a url" }) }))).toBe("events.3.location.url")
  })
  it("reads the same through the tracking's cache of recent URLs, which keeps at most 4,096", () => {
    const recent = Effect.runSync(RecentUrls.pipe(Effect.provide(RecentUrlsLive)))
    for (const round of [0, 1]) {
      for (let i = 0; i < 5000; i++) {
        const event = toStoredEvent(
          decodeEvent(makeEvent("link_click", {
            location: location({ url: `https://d${i % 7}.example.com/p/${i}?utm_source=s${i}` }),
            session: session({ referrer: `https://r${i}.example.org/from` }),
            link: { target: { kind: "url", url: `https://l${i}.example.net/to` }, position: "content" }
          })),
          context,
          recent
        )
        if (Either.isLeft(event)) throw new Error(`refused: ${event.left.message}`)
        const { linkTargetDomain, referrerDomain, urlPath, utmSource } = event.right
        expect([urlPath, utmSource, referrerDomain, linkTargetDomain], `round ${round}, URL ${i}`).toEqual([
          `/p/${i}`,
          `s${i}`,
          `r${i}.example.org`,
          `l${i}.example.net`
        ])
        expect(recent.size()).toBeLessThanOrEqual(4096)
      }
    }
  })
})

describe("TrackEventsInput: required fields", () => {
  const eventCases: Array<[string, string, string]> = [
    ["page_view", "session", "events.3.session"],
    ["page_view", "location", "events.3.location"],
    ["page_view", "type", "events.3.type"],
    ["search_type_query", "query", "events.3.query"],
    ["search_open_result", "query", "events.3.query"],
    ["search_open_result", "result", "events.3.result"],
    ["page_post_feedback", "feedback", "events.3.feedback"],
    ["page_post_feedback_comment", "feedback", "events.3.feedback"],
    ["ask_question", "query", "events.3.query"],
    ["ask_rate_response", "query", "events.3.query"],
    ["ask_rate_response", "rating", "events.3.rating"],
    ["ask_rate_response", "responseId", "events.3.responseId"],
    ["link_click", "link", "events.3.link"],
    ["api_client_open", "operation", "events.3.operation"],
    ["api_client_request", "operation", "events.3.operation"],
    ["trademark_click", "placement", "events.3.placement"],
    ["ad_click", "ad", "events.3.ad"],
    ["ad_display", "ad", "events.3.ad"],
    ["llms_request", "llmsVariant", "events.3.llmsVariant"]
  ]
  for (const [type, field, path] of eventCases) {
    it(`${type} without ${field} is refused at ${path}`, () => {
      expect(pathOf(without(makeEvent(type), field))).toBe(path)
    })
  }

  it("names nested missing fields", () => {
    const nested: Array<[unknown, string]> = [
      [makeEvent("page_post_feedback", { feedback: {} }), "events.3.feedback.rating"],
      [makeEvent("page_post_feedback_comment", { feedback: { rating: "ok" } }), "events.3.feedback.comment"],
      [makeEvent("link_click", { link: { position: "content" } }), "events.3.link.target"],
      [makeEvent("link_click", { link: { target: { kind: "page", page: "p" } } }), "events.3.link.position"],
      [makeEvent("link_click", { link: { target: { kind: "url" }, position: "footer" } }), "events.3.link.target.url"],
      [makeEvent("api_client_open", { operation: { path: "/x" } }), "events.3.operation.method"],
      [makeEvent("api_client_request", { operation: { method: "get" } }), "events.3.operation.path"],
      [makeEvent("ad_click", { ad: { domain: "a.com", placement: "aside" } }), "events.3.ad.zoneId"],
      [makeEvent("ad_display", { ad: { domain: "a.com", zoneId: "z" } }), "events.3.ad.placement"],
      [makeEvent("ad_click", { ad: { zoneId: "z", placement: "aside" } }), "events.3.ad.domain"]
    ]
    for (const [event, path] of nested) expect(pathOf(event)).toBe(path)
    // A search result is either form; neither half-form passes.
    expect(pathOf(makeEvent("search_open_result", { result: { spaceId: "s" } }))).toMatch(/^events\.3\.result/)
  })

  for (const field of ["visitorId", "sessionId", "cookies", "userAgent", "language", "referrer"]) {
    it(`session.${field} is required`, () => {
      expect(pathOf(makeEvent("page_view", { session: without(session(), field) }))).toBe(`events.3.session.${field}`)
    })
  }
  for (const field of ["url", "siteSection", "siteSpace", "siteShareKey", "space", "revision", "page"]) {
    it(`location.${field} is required`, () => {
      expect(pathOf(makeEvent("page_view", { location: without(location(), field) }))).toBe(`events.3.location.${field}`)
    })
  }

  it("leaves optional fields optional and ignores unknown ones", () => {
    expect(pathOf(without(makeEvent("page_markdown_request"), "markdownSource"))).toBe("ok")
    expect(pathOf(without(makeEvent("ask_question"), "goal"))).toBe("ok")
    expect(pathOf(makeEvent("page_view", { location: without(location(), "displayContext"), extra: 1 }))).toBe("ok")
    expect(
      pathOf(
        makeEvent("page_view", { session: session({ ip: "2001:db8::1", visitorAuthToken: null, visitorAuthClaims: { plan: "pro" } }) })
      )
    ).toBe("ok")
  })

  it("keeps claims named __proto__ or constructor, as JSON.parse gives them", () => {
    const sent = JSON.stringify(batchWith(makeEvent("page_view", { session: session({ visitorAuthClaims: { plan: "pro" } }) })))
      .replace("\"plan\":\"pro\"", "\"__proto__\":\"pro\",\"constructor\":{\"beta\":true}")
    const decoded = Schema.decodeUnknownSync(TrackEventsInput)(JSON.parse(sent))
    const claims = decoded.events[3]!.session.visitorAuthClaims!
    expect(Object.entries(claims)).toEqual([["__proto__", "pro"], ["constructor", { beta: true }]])
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype)
    expect(pathOf(JSON.parse(sent).events[3])).toBe("ok")
  })

  it("refuses wrong enumerations at their path", () => {
    const cases: Array<[unknown, string]> = [
      [makeEvent("page_post_feedback", { feedback: { rating: "great" } }), "events.3.feedback.rating"],
      [makeEvent("ask_rate_response", { rating: 0 }), "events.3.rating"],
      [makeEvent("trademark_click", { placement: "header" }), "events.3.placement"],
      [makeEvent("llms_request", { llmsVariant: "mini" }), "events.3.llmsVariant"],
      [makeEvent("page_markdown_request", { markdownSource: "api" }), "events.3.markdownSource"],
      [makeEvent("ad_click", { ad: { domain: "a", zoneId: "z", placement: "top" } }), "events.3.ad.placement"],
      [makeEvent("page_view", { location: location({ displayContext: "app" }) }), "events.3.location.displayContext"],
      [makeEvent("unknown_type"), "events.3.type"],
      [makeEvent("page_view", { timestamp: "yesterday" }), "events.3.timestamp"],
      [makeEvent("page_view", { timestamp: "2026-02-30T00:00:00Z" }), "events.3.timestamp"],
      [makeEvent("page_view", { session: session({ cookies: ["a=b"] }) }), "events.3.session.cookies"],
      [makeEvent("page_view", { session: session({ cookies: { a: 1 } }) }), "events.3.session.cookies.a"],
      [makeEvent("page_view", { session: session({ visitorAuthClaims: "pro" }) }), "events.3.session.visitorAuthClaims"],
      [makeEvent("page_view", { session: session({ visitorId: "a\u0000b" }) }), "events.3.session.visitorId"],
      [makeEvent("search_type_query", { query: "\uD800" }), "events.3.query"]
    ]
    for (const [event, path] of cases) expect(pathOf(event)).toBe(path)
  })
})

describe("TrackEventsInput: limits at their edges", () => {
  const sessionPath = (over: Record<string, unknown>) => pathOf(makeEvent("page_view", { session: session(over) }))
  const locationPath = (over: Record<string, unknown>) => pathOf(makeEvent("page_view", { location: location(over) }))

  it("visitorId and sessionId: 1-128 characters", () => {
    expect(sessionPath({ visitorId: "v".repeat(128), sessionId: "s".repeat(128) })).toBe("ok")
    expect(sessionPath({ visitorId: "v".repeat(129) })).toBe("events.3.session.visitorId")
    expect(sessionPath({ sessionId: "s".repeat(129) })).toBe("events.3.session.sessionId")
    expect(sessionPath({ visitorId: "" })).toBe("events.3.session.visitorId")
    expect(sessionPath({ sessionId: "" })).toBe("events.3.session.sessionId")
    expect(sessionPath({ visitorId: "v" })).toBe("ok")
  })

  it("events: 1-100", () => {
    const many = (n: number) => ({ events: Array.from({ length: n }, () => makeEvent("page_view")) })
    expect(firstError(many(100))).toBe("ok")
    expect(firstError(many(1))).toBe("ok")
    expect(firstError(many(101))).toEqual({ field: "events", rule: "must have at most 100 entries, got 101" })
    expect(firstError(many(0))).toEqual({ field: "events", rule: "must have at least 1 entries, got 0" })
  })

  it("userAgent: at most 1024 characters", () => {
    expect(sessionPath({ userAgent: "u".repeat(1024) })).toBe("ok")
    expect(firstError(batchWith(makeEvent("page_view", { session: session({ userAgent: "u".repeat(1025) }) })))).toEqual({
      field: "events.3.session.userAgent",
      rule: "must be at most 1024 characters, got 1025"
    })
  })

  it("feedback comment: 1-512 characters", () => {
    const comment = (text: string) => pathOf(makeEvent("page_post_feedback_comment", { feedback: { rating: "ok", comment: text } }))
    expect(comment("c".repeat(512))).toBe("ok")
    expect(comment("c".repeat(513))).toBe("events.3.feedback.comment")
    expect(comment("c")).toBe("ok")
    expect(comment("")).toBe("events.3.feedback.comment")
  })

  for (const field of ["siteSection", "siteSpace", "siteShareKey", "space", "revision", "page"]) {
    it(`location.${field}: at most 64 characters, or null`, () => {
      expect(locationPath({ [field]: "i".repeat(64) })).toBe("ok")
      expect(locationPath({ [field]: null })).toBe("ok")
      expect(locationPath({ [field]: "i".repeat(65) })).toBe(`events.3.location.${field}`)
    })
  }

  it("referrer: null, empty or a URI", () => {
    expect(sessionPath({ referrer: "" })).toBe("ok")
    expect(sessionPath({ referrer: null })).toBe("ok")
    expect(sessionPath({ referrer: "https://example.com/a?b=c" })).toBe("ok")
    expect(sessionPath({ referrer: "not a uri" })).toBe("events.3.session.referrer")
    expect(sessionPath({ referrer: "/relative" })).toBe("events.3.session.referrer")
    expect(sessionPath({ referrer: `https://example.com/${"a".repeat(2028)}` })).toBe("ok")
    expect(sessionPath({ referrer: `https://example.com/${"a".repeat(2029)}` })).toBe("events.3.session.referrer")
    expect(stored(makeEvent("page_view", { session: session({ referrer: "" }) }))).toMatchObject({ referrer: null, referrerDomain: null })
    expect(stored(makeEvent("page_view", { session: session({ referrer: null }) }))).toMatchObject({ referrer: null, referrerDomain: null })
  })

  it("location.url: an absolute URL of at most 2048 characters", () => {
    expect(locationPath({ url: "/guide" })).toBe("events.3.location.url")
    expect(locationPath({ url: `https://example.com/${"a".repeat(2028)}` })).toBe("ok")
    expect(locationPath({ url: `https://example.com/${"a".repeat(2029)}` })).toBe("events.3.location.url")
  })

  it("cookies: at most 50", () => {
    const cookies = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, "v"]))
    expect(sessionPath({ cookies: cookies(50) })).toBe("ok")
    expect(sessionPath({ cookies: {} })).toBe("ok")
    expect(sessionPath({ cookies: cookies(51) })).toBe("events.3.session.cookies")
  })

  it("visitorAuthClaims: at most 4 KiB of JSON", () => {
    // {"k":"…"} is 8 bytes around the value.
    expect(sessionPath({ visitorAuthClaims: { k: "x".repeat(4088) } })).toBe("ok")
    expect(sessionPath({ visitorAuthClaims: { k: "x".repeat(4089) } })).toBe("events.3.session.visitorAuthClaims")
    expect(sessionPath({ visitorAuthClaims: { k: "é".repeat(2045) } })).toBe("events.3.session.visitorAuthClaims")
  })
})

describe("toStoredEvent: timestamps", () => {
  const at = (timestamp: string) => convert(makeEvent("page_view", { timestamp }))
  const refusal = (timestamp: string) => {
    const result = at(timestamp)
    return Either.isLeft(result) ? { field: result.left.field, rule: result.left.rule } : "ok"
  }

  it("accepts up to 5 minutes ahead of now", () => {
    expect(refusal("2026-06-15T12:05:00.000Z")).toBe("ok")
    expect(refusal("2026-06-15T14:05:00+02:00")).toBe("ok")
    expect(refusal("2026-06-15T12:05:00.001Z")).toEqual({ field: "timestamp", rule: "must not be more than 5 minutes in the future" })
  })

  it("accepts up to one year before now", () => {
    expect(refusal("2025-06-15T12:00:00.000Z")).toBe("ok")
    expect(refusal("2025-06-15T11:59:59.999Z")).toEqual({ field: "timestamp", rule: "must not be more than 1 year in the past" })
  })

  it("stores the client's time, and now when none is given", () => {
    expect(stored(makeEvent("page_view", { timestamp: "2026-06-15T10:00:00+00:00" })).timestamp).toEqual(new Date("2026-06-15T10:00:00Z"))
    expect(stored(makeEvent("page_view")).timestamp).toEqual(now)
  })
})

describe("toStoredEvent: dedupKey", () => {
  const key = (event: unknown, ctx: Partial<TrackContext> = {}) => stored(event, ctx).dedupKey
  const timestamp = "2026-06-15T11:00:00.000Z"

  it("is stored as the first 128 bits of the SHA-256 of its text, in hex", () => {
    // SHA-256("abc"), FIPS 180-2's first example: ba7816bf8f01cfea414140de5dae2223 b00361a3…
    expect(dedupDigest("abc")).toBe("ba7816bf8f01cfea414140de5dae2223")
  })

  it("is null without a client timestamp", () => {
    expect(key(makeEvent("search_type_query"))).toBeNull()
  })

  it("is the same for the same event, whatever the id or the offset written", () => {
    const a = key(makeEvent("link_click", { timestamp }))
    expect(a).toBe(
      dedupDigest(JSON.stringify([
        "site_1",
        "visitor-1",
        "session-1",
        "link_click",
        Date.parse(timestamp),
        location().url,
        ["url", "https://GitHub.com/octavo/repo", null, null, "header"]
      ]))
    )
    expect(a).toMatch(/^[0-9a-f]{32}$/)
    expect(key(makeEvent("link_click", { timestamp }), { id: "evt_2", now: new Date("2026-06-15T11:01:00Z") })).toBe(a)
    expect(key(makeEvent("link_click", { timestamp: "2026-06-15T13:00:00+02:00" }))).toBe(a)
  })

  it("differs when the type's own field, the session, the time, the url, the type or the site differ", () => {
    const base = key(makeEvent("search_type_query", { timestamp }))
    const others = [
      key(makeEvent("search_type_query", { timestamp, query: "installation" })),
      key(makeEvent("search_type_query", { timestamp, session: session({ sessionId: "session-2" }) })),
      key(makeEvent("search_type_query", { timestamp, session: session({ visitorId: "visitor-2" }) })),
      key(makeEvent("search_type_query", { timestamp: "2026-06-15T11:00:00.001Z" })),
      key(makeEvent("search_type_query", { timestamp, location: location({ url: "https://docs.example.com/other" }) })),
      key(makeEvent("ask_question", { timestamp, query: "install", goal: undefined })),
      key(makeEvent("search_type_query", { timestamp }), { siteId: SiteId.make("site_2") })
    ]
    expect(new Set([base, ...others]).size).toBe(others.length + 1)
    const ad = (zoneId: string) => key(makeEvent("ad_display", { timestamp, ad: { domain: "a.com", zoneId, placement: "aside" } }))
    expect(ad("z1")).not.toBe(ad("z2"))
    const result = (value: unknown) => key(makeEvent("search_open_result", { timestamp, result: value }))
    expect(result({ recordId: "page_9" })).not.toBe(result({ spaceId: "space_2", pageId: "page_9" }))
    const goal = (value: string) => key(makeEvent("ask_question", { timestamp, goal: value }))
    expect(goal("a")).not.toBe(goal("b"))
  })
})

describe("toStoredEvent: random valid events", () => {
  const storable = (s: string) => !s.includes("\u0000")
  const text = (min: number, max: number) =>
    fc.string({ unit: "binary", minLength: min, maxLength: max }).filter((s) => storable(s) && s.length <= max)
  const nullableId = fc.option(text(0, 64), { nil: null })
  const arbSession = fc.record({
    visitorId: text(1, 128),
    sessionId: text(1, 128),
    cookies: fc.dictionary(fc.string({ maxLength: 10 }).filter(storable), text(0, 20), { maxKeys: 50 }),
    userAgent: text(0, 1024),
    language: fc.option(text(0, 20), { nil: null }),
    referrer: fc.oneof(fc.constant(null), fc.constant(""), fc.webUrl({ withQueryParameters: true, withFragments: true }))
  })
  const arbLocation = fc.record({
    url: fc.webUrl({ withQueryParameters: true, withFragments: true }),
    displayContext: fc.constantFrom("site", "server", "embed", "mcp"),
    siteSection: nullableId,
    siteSpace: nullableId,
    siteShareKey: nullableId,
    space: nullableId,
    revision: nullableId,
    page: nullableId
  }, { requiredKeys: ["url", "siteSection", "siteSpace", "siteShareKey", "space", "revision", "page"] })
  const arbTarget = fc.oneof(
    fc.record({ kind: fc.constant("url"), url: text(0, 40) }),
    fc.record({ kind: fc.constant("url"), url: fc.webUrl() }),
    fc.record({ kind: fc.constant("page"), page: text(1, 20), space: text(1, 20) }, { requiredKeys: ["kind", "page"] }),
    fc.record({ kind: fc.constant("anchor"), anchor: text(1, 20), page: text(1, 20) }, { requiredKeys: ["kind", "anchor"] }),
    fc.record({ kind: fc.constant("openapi"), spec: text(1, 20) })
  )
  const arbExtras: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
    fc.constantFrom("page_view", "search_open", "agent_feedback", "ask_view", "mcp_request", "rss_request").map((type) => ({ type })),
    fc.record({ type: fc.constant("page_markdown_request"), markdownSource: fc.constant("page-action") }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constant("search_type_query"), query: text(0, 50) }),
    fc.record({
      type: fc.constant("search_open_result"),
      query: text(0, 50),
      result: fc.oneof(fc.record({ spaceId: text(1, 20), pageId: text(1, 20) }), fc.record({ recordId: text(1, 20) }))
    }),
    fc.record({ type: fc.constant("page_post_feedback"), feedback: fc.record({ rating: fc.constantFrom("bad", "ok", "good") }) }),
    fc.record({
      type: fc.constant("page_post_feedback_comment"),
      feedback: fc.record({ rating: fc.constantFrom("bad", "ok", "good"), comment: text(1, 512) })
    }),
    fc.record({ type: fc.constant("ask_question"), query: text(0, 50), goal: text(0, 50) }, { requiredKeys: ["type", "query"] }),
    fc.record({ type: fc.constant("ask_rate_response"), query: text(0, 50), rating: fc.constantFrom(1, -1), responseId: text(0, 20) }),
    fc.record({
      type: fc.constant("link_click"),
      link: fc.record({ target: arbTarget, position: fc.constantFrom("announcement", "header", "footer", "sidebar", "content") })
    }),
    fc.record({
      type: fc.constantFrom("api_client_open", "api_client_request"),
      operation: fc.record({ path: text(0, 30), method: text(0, 10) })
    }),
    fc.record({ type: fc.constant("trademark_click"), placement: fc.constantFrom("sidebar", "ad", "footer", "pdf", "embed") }),
    fc.record({
      type: fc.constantFrom("ad_click", "ad_display"),
      ad: fc.record({ domain: text(0, 20), zoneId: text(0, 20), placement: fc.constant("aside") })
    }),
    fc.record({ type: fc.constant("llms_request"), llmsVariant: fc.constantFrom("standard", "full") })
  )
  const arbTimestamp = fc.option(
    fc.integer({ min: now.getTime() - 364 * 86_400_000, max: now.getTime() + 5 * 60_000 }).map((ms) => new Date(ms).toISOString()),
    { nil: undefined }
  )

  it("decode, convert without throwing, and give a valid StoredEvent", () => {
    fc.assert(
      fc.property(arbSession, arbLocation, arbExtras, arbTimestamp, (s, l, extra, timestamp) => {
        const input = { session: s, location: l, ...extra, ...(timestamp === undefined ? {} : { timestamp }) }
        expect(firstError({ events: [input] })).toBe("ok")
        const result = convert(input)
        expect(Either.isRight(result)).toBe(true)
        if (Either.isRight(result)) {
          const event = Schema.decodeUnknownSync(StoredEvent)(result.right)
          expect(event.type).toBe(extra["type"])
          expect(event.dedupKey === null).toBe(timestamp === undefined)
        }
      }),
      { numRuns: 300 }
    )
  })
})
