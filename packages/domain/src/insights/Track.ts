import { Either, Schema } from "effect"
import type { BoundedCache } from "../shared/BoundedCache.js"
import { InvalidInput } from "../shared/Errors.js"
import { sha256Hex } from "../shared/Secrets.js"
import type { SiteId } from "../shared/Ids.js"
import { boundedArray, boundedString, StoredJson, storedKeysRecord, StoredString, utf8Length } from "../shared/Limits.js"
import { DisplayContext, PageFeedbackRating, type StoredEvent, type UserAgentInfo } from "./Event.js"

// Tracking (conventions-2.md §2, "Track"): the body of POST …/insights/events as GitBook's
// SiteInsightsEvent describes it, and its conversion into the stored, flattened event.

const tryUrl = (s: string): URL | null => {
  try {
    return new URL(s)
  } catch {
    return null
  }
}

/** The URL a text names, through `recent` when given (`RecentUrls`): its URLs are shared, so only read them. */
const parseUrl = (s: string, recent: BoundedCache<string, URL | null> | undefined): URL | undefined =>
  (recent === undefined ? tryUrl(s) : recent.getOrCompute(s, tryUrl)) ?? undefined

/** GitBook's URL: an absolute URI of at most 2048 characters (checked without building it: the conversion parses it). */
const AbsoluteUrl = StoredString.pipe(
  Schema.filter((s) => (s.length <= 2048 && URL.canParse(s)) || "must be an absolute URL of at most 2048 characters", {
    jsonSchema: { format: "uri", maxLength: 2048 }
  })
)

const isoDateTime = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

/** An RFC 3339 date-time whose date exists (no February 30th). */
const DateTimeString = StoredString.pipe(
  Schema.filter((s) => {
    const m = isoDateTime.exec(s)
    if (m === null) return "must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z"
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number]
    const date = new Date(Date.UTC(year, month - 1, day))
    const exists = date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60
    return (exists && !Number.isNaN(Date.parse(s))) || "must be an existing date and time"
  }, { jsonSchema: { format: "date-time" } })
)

const maxCookies = 50
const maxClaimsBytes = 4096

/** GitBook's PlainObject, kept to 4 KiB of JSON text. */
const VisitorAuthClaims = storedKeysRecord(Schema.Unknown).pipe(
  Schema.filter((claims) => Schema.is(StoredJson)(claims) || "must not contain NUL characters or lone surrogates"),
  Schema.filter((claims) => {
    const bytes = utf8Length(JSON.stringify(claims))
    return bytes <= maxClaimsBytes || `must be at most ${maxClaimsBytes} bytes as JSON, got ${bytes}`
  })
)

/** GitBook's SiteInsightsEventSession. */
export const TrackSession = Schema.Struct({
  visitorId: boundedString({ min: 1, max: 128 }),
  sessionId: boundedString({ min: 1, max: 128 }),
  /** Not stored. */
  cookies: storedKeysRecord(StoredString).pipe(
    Schema.filter((cookies) => {
      const count = Object.keys(cookies).length
      return count <= maxCookies || `must have at most ${maxCookies} cookies, got ${count}`
    })
  ),
  /** For GeoIP only (Octavo has none); never stored. */
  ip: Schema.optional(boundedString({ max: 128 })),
  userAgent: boundedString({ max: 1024 }),
  language: Schema.NullOr(StoredString),
  referrer: Schema.NullOr(Schema.Union(Schema.Literal(""), AbsoluteUrl)),
  /** What the client says of its visitor; the caller decides whether to keep it (TrackContext.visitorClaims). */
  visitorAuthClaims: Schema.optional(VisitorAuthClaims)
})
export type TrackSession = typeof TrackSession.Type

const LocationId = Schema.NullOr(boundedString({ max: 64 }))

/** GitBook's SiteInsightsEventLocation. `displayContext` stays optional here; toStoredEvent reads its absence as `site`. */
export const TrackLocation = Schema.Struct({
  url: AbsoluteUrl,
  displayContext: Schema.optional(DisplayContext),
  siteSection: LocationId,
  siteSpace: LocationId,
  /** The share link's id. */
  siteShareKey: LocationId,
  space: LocationId,
  revision: LocationId,
  page: LocationId
})
export type TrackLocation = typeof TrackLocation.Type

const ref = <K extends string, F extends Schema.Struct.Fields>(kind: K, fields: F) =>
  Schema.Struct({ kind: Schema.Literal(kind), ...fields })

/** GitBook's ContentRef, every kind. */
export const ContentRef = Schema.Union(
  ref("url", { url: StoredString }),
  ref("file", { file: StoredString, space: Schema.optional(StoredString) }),
  ref("page", { page: StoredString, space: Schema.optional(StoredString) }),
  ref("anchor", { anchor: StoredString, space: Schema.optional(StoredString), page: Schema.optional(StoredString) }),
  ref("user", { user: StoredString }),
  ref("collection", { collection: StoredString }),
  ref("space", { space: StoredString }),
  ref("reusable-content", { reusableContent: StoredString, space: Schema.optional(StoredString) }),
  ref("tag", { tag: StoredString, space: Schema.optional(StoredString) }),
  ref("openapi", { spec: StoredString })
)
export type ContentRef = typeof ContentRef.Type

const base = {
  session: TrackSession,
  location: TrackLocation,
  timestamp: Schema.optional(DateTimeString)
}

// One struct per type, each with a single literal, so that the union picks its member by `type`
// and reports the member's own failure (`events.3.session.visitorId`) rather than every member's.
const event = <T extends string, F extends Schema.Struct.Fields>(type: T, fields: F) =>
  Schema.Struct({ type: Schema.Literal(type), ...base, ...fields })

const OperationPointer = Schema.Struct({ path: StoredString, method: StoredString })
const Ad = Schema.Struct({ domain: StoredString, zoneId: StoredString, placement: Schema.Literal("aside") })

/** One event of GitBook's SiteInsightsEvent, discriminated by `type`. */
export const TrackEvent = Schema.Union(
  event("page_view", {}),
  event("search_open", {}),
  event("agent_feedback", {}),
  event("ask_view", {}),
  event("mcp_request", {}),
  event("rss_request", {}),
  event("page_markdown_request", { markdownSource: Schema.optional(Schema.Literal("page-action")) }),
  event("search_type_query", { query: StoredString }),
  event("search_open_result", {
    query: StoredString,
    result: Schema.Union(
      Schema.Struct({ spaceId: StoredString, pageId: StoredString }),
      Schema.Struct({ recordId: StoredString })
    )
  }),
  event("page_post_feedback", { feedback: Schema.Struct({ rating: PageFeedbackRating }) }),
  event("page_post_feedback_comment", {
    feedback: Schema.Struct({ rating: PageFeedbackRating, comment: boundedString({ min: 1, max: 512 }) })
  }),
  event("ask_question", { query: StoredString, goal: Schema.optional(StoredString) }),
  event("ask_rate_response", { query: StoredString, rating: Schema.Literal(1, -1), responseId: StoredString }),
  event("link_click", {
    link: Schema.Struct({
      target: ContentRef,
      position: Schema.Literal("announcement", "header", "footer", "sidebar", "content")
    })
  }),
  event("api_client_open", { operation: OperationPointer }),
  event("api_client_request", { operation: OperationPointer }),
  event("trademark_click", { placement: Schema.Literal("sidebar", "ad", "footer", "pdf", "embed") }),
  event("ad_click", { ad: Ad }),
  event("ad_display", { ad: Ad }),
  event("llms_request", { llmsVariant: Schema.Literal("standard", "full") })
)
/** One tracked event as the client sends it. */
export type TrackEvent = typeof TrackEvent.Type

/** The body of POST …/insights/events: 1-100 events, all stored or none. */
export const TrackEventsInput = Schema.Struct({
  events: boundedArray(TrackEvent, { min: 1, max: 100 })
})
export type TrackEventsInput = typeof TrackEventsInput.Type

/** What the caller knows of the request an event came with. */
export interface TrackContext {
  /** The stored event's id. */
  readonly id: string
  readonly siteId: SiteId
  readonly now: Date
  /** The session's userAgent, parsed. */
  readonly ua: UserAgentInfo
  /**
   * The claims stored with the event: those of a verified visitor token, or the event's own
   * `session.visitorAuthClaims` when the caller trusts its sender; null for none.
   */
  readonly visitorClaims: unknown
  readonly visitorAuthenticated: boolean
}

const maxFutureMs = 5 * 60 * 1000

/** The fields of one type of event, all null but those its type sets. */
type TypeFields = Pick<
  StoredEvent,
  | "linkTargetValue"
  | "linkTargetKind"
  | "linkTargetDomain"
  | "linkPosition"
  | "apiOperationPath"
  | "apiOperationMethod"
  | "llmsVariant"
  | "markdownSource"
  | "searchQuery"
  | "searchResultRecordId"
  | "pageFeedbackRating"
  | "pageFeedbackComment"
  | "askResponseRating"
  | "adDomain"
  | "adPlacement"
  | "trademarkPlacement"
>

/** Every field of the event types, empty: an event fills those its type has. */
export const noTypeFields: TypeFields = {
  linkTargetValue: null,
  linkTargetKind: null,
  linkTargetDomain: null,
  linkPosition: null,
  apiOperationPath: null,
  apiOperationMethod: null,
  llmsVariant: null,
  markdownSource: null,
  searchQuery: null,
  searchResultRecordId: null,
  pageFeedbackRating: null,
  pageFeedbackComment: null,
  askResponseRating: null,
  adDomain: null,
  adPlacement: null,
  trademarkPlacement: null
}

/** The value a ContentRef points at: the URL for `url`, otherwise the id (or slug) its kind names. */
const contentRefValue = (target: ContentRef): string => {
  switch (target.kind) {
    case "url":
      return target.url
    case "file":
      return target.file
    case "page":
      return target.page
    case "anchor":
      return target.anchor
    case "user":
      return target.user
    case "collection":
      return target.collection
    case "space":
      return target.space
    case "reusable-content":
      return target.reusableContent
    case "tag":
      return target.tag
    case "openapi":
      return target.spec
  }
}

/** The ContentRef's fields in a fixed order, for the dedup key. */
const contentRefKey = (target: ContentRef): ReadonlyArray<string | null> => [
  target.kind,
  contentRefValue(target),
  "space" in target && target.kind !== "space" ? target.space ?? null : null,
  target.kind === "anchor" ? target.page ?? null : null
]

/**
 * The stored fields of the event's type, and its own fields in a fixed order (the last part of its
 * dedup key: every field the type adds, stored or not, such as an ask's `goal` or an ad's `zoneId`).
 */
const typeFieldsOf = (
  event: TrackEvent,
  recent: BoundedCache<string, URL | null> | undefined
): readonly [TypeFields, ReadonlyArray<unknown>] => {
  switch (event.type) {
    case "page_view":
    case "search_open":
    case "agent_feedback":
    case "ask_view":
    case "mcp_request":
    case "rss_request":
      return [noTypeFields, []]
    case "page_markdown_request":
      return [{ ...noTypeFields, markdownSource: event.markdownSource ?? null }, [event.markdownSource ?? null]]
    case "search_type_query":
      return [{ ...noTypeFields, searchQuery: event.query }, [event.query]]
    case "search_open_result": {
      // A page result is recorded by its page id: the space it is in is the location's.
      const result = "recordId" in event.result
        ? { recordId: event.result.recordId, key: [null, null, event.result.recordId] }
        : { recordId: event.result.pageId, key: [event.result.spaceId, event.result.pageId, null] }
      return [{ ...noTypeFields, searchQuery: event.query, searchResultRecordId: result.recordId }, [event.query, ...result.key]]
    }
    case "page_post_feedback":
      return [{ ...noTypeFields, pageFeedbackRating: event.feedback.rating }, [event.feedback.rating]]
    case "page_post_feedback_comment":
      return [
        { ...noTypeFields, pageFeedbackRating: event.feedback.rating, pageFeedbackComment: event.feedback.comment },
        [event.feedback.rating, event.feedback.comment]
      ]
    case "ask_question":
      return [{ ...noTypeFields, searchQuery: event.query }, [event.query, event.goal ?? null]]
    case "ask_rate_response":
      return [
        { ...noTypeFields, searchQuery: event.query, askResponseRating: event.rating },
        [event.query, event.rating, event.responseId]
      ]
    case "link_click": {
      const target = event.link.target
      const domain = target.kind === "url" ? parseUrl(target.url, recent)?.hostname || null : null
      return [
        {
          ...noTypeFields,
          linkTargetKind: target.kind,
          linkTargetValue: contentRefValue(target),
          linkTargetDomain: domain,
          linkPosition: event.link.position
        },
        [...contentRefKey(target), event.link.position]
      ]
    }
    case "api_client_open":
    case "api_client_request":
      return [
        { ...noTypeFields, apiOperationPath: event.operation.path, apiOperationMethod: event.operation.method },
        [event.operation.path, event.operation.method]
      ]
    case "trademark_click":
      return [{ ...noTypeFields, trademarkPlacement: event.placement }, [event.placement]]
    case "ad_click":
    case "ad_display":
      return [
        { ...noTypeFields, adDomain: event.ad.domain, adPlacement: event.ad.placement },
        [event.ad.domain, event.ad.zoneId, event.ad.placement]
      ]
    case "llms_request":
      return [{ ...noTypeFields, llmsVariant: event.llmsVariant }, [event.llmsVariant]]
  }
}

/** The event's time, or why it is refused: at most 5 minutes ahead of `now` and at most a (calendar) year behind. */
const timestampOf = (timestamp: string | undefined, now: Date): Either.Either<Date, InvalidInput> => {
  if (timestamp === undefined) return Either.right(now)
  const at = new Date(timestamp)
  const oldest = new Date(now.getTime())
  oldest.setUTCFullYear(oldest.getUTCFullYear() - 1)
  if (at.getTime() > now.getTime() + maxFutureMs) {
    return Either.left(new InvalidInput({ field: "timestamp", rule: "must not be more than 5 minutes in the future" }))
  }
  if (at.getTime() < oldest.getTime()) {
    return Either.left(new InvalidInput({ field: "timestamp", rule: "must not be more than 1 year in the past" }))
  }
  return Either.right(at)
}

/**
 * A dedup key's stored form: the first 128 bits of the SHA-256 of its text, in hex. Every event with a
 * client timestamp stores one (PostgreSQL keeps it as the event's id), so it is kept short and fixed
 * (32 characters, where the text runs to hundreds); 128 bits make a collision between two events of a
 * site out of reach.
 */
export const dedupDigest = (text: string): string => sha256Hex(text).slice(0, 32)

/**
 * The event as stored, or an InvalidInput on `timestamp` (relative to the event: a batch prefixes
 * `events.<i>.`). The event must have passed TrackEvent.
 *
 * - A `""` referrer (no referrer) is stored as null, like an absent one.
 * - `dedupKey`, set only when the client gave the timestamp, is `dedupDigest` of the JSON text of
 *   [siteId, visitorId, sessionId, type, timestamp in ms, url, [the type's own fields in a fixed order]]:
 *   the same event sent twice gives the same key, whatever the timestamp's written offset.
 * - `recent` keeps the URLs parsed lately (`RecentUrls`); without it each URL is parsed anew.
 */
export const toStoredEvent = (
  event: TrackEvent,
  context: TrackContext,
  recent?: BoundedCache<string, URL | null>
): Either.Either<StoredEvent, InvalidInput> =>
  Either.map(timestampOf(event.timestamp, context.now), (timestamp): StoredEvent => {
    const { location, session } = event
    const url = parseUrl(location.url, recent)
    const referrer = session.referrer === "" ? null : session.referrer
    // Most URLs have no query: their searchParams, built on first use, are not built at all.
    const utm = (name: string) => url === undefined || url.search === "" ? null : url.searchParams.get(`utm_${name}`)
    const [typeFields, ownFields] = typeFieldsOf(event, recent)
    return {
      id: context.id,
      siteId: context.siteId,
      type: event.type,
      timestamp,
      dedupKey: event.timestamp === undefined ? null : dedupDigest(JSON.stringify([
        context.siteId,
        session.visitorId,
        session.sessionId,
        event.type,
        timestamp.getTime(),
        location.url,
        ownFields
      ])),
      visitorId: session.visitorId,
      sessionId: session.sessionId,
      visitorBrowser: context.ua.browser,
      visitorDevice: context.ua.device,
      visitorOS: context.ua.os,
      visitorBot: context.ua.bot,
      visitorLanguage: session.language,
      visitorGeoCountry: null,
      visitorAuthenticated: context.visitorAuthenticated,
      visitorClaims: context.visitorClaims ?? null,
      url: location.url,
      urlPath: url?.pathname ?? "",
      referrer,
      referrerDomain: referrer === null ? null : parseUrl(referrer, recent)?.hostname || null,
      utmSource: utm("source"),
      utmMedium: utm("medium"),
      utmCampaign: utm("campaign"),
      utmTerm: utm("term"),
      utmContent: utm("content"),
      displayContext: location.displayContext ?? "site",
      siteSection: location.siteSection,
      siteSpace: location.siteSpace,
      siteShareKey: location.siteShareKey,
      space: location.space,
      revision: location.revision,
      page: location.page,
      ...typeFields
    }
  })
