import type { SiteId } from "../shared/Ids.js"
import type { StoredEvent } from "./Event.js"

/**
 * Aggregate queries over a site's events (conventions-2.md §2, "Aggregate"), once validated and
 * resolved: what each adapter compiles (SQL on PostgreSQL, a scan in memory) and must answer alike.
 */

/** The dimensions read straight from a stored field, by GitBook's column name. */
export const fieldColumns = {
  url: "url",
  urlPath: "urlPath",
  eventType: "type",
  siteSection: "siteSection",
  siteSpace: "siteSpace",
  siteShareKey: "siteShareKey",
  displayContext: "displayContext",
  page: "page",
  visitorGeoCountry: "visitorGeoCountry",
  visitorDevice: "visitorDevice",
  visitorBrowser: "visitorBrowser",
  visitorOS: "visitorOS",
  visitorBot: "visitorBot",
  visitorLanguage: "visitorLanguage",
  visitorAuthenticated: "visitorAuthenticated",
  eventLinkTargetValue: "linkTargetValue",
  eventLinkTargetKind: "linkTargetKind",
  eventLinkTargetDomain: "linkTargetDomain",
  eventLinkPosition: "linkPosition",
  eventAPIOperationPath: "apiOperationPath",
  eventAPIOperationMethod: "apiOperationMethod",
  eventLLMSVariant: "llmsVariant",
  eventMarkdownSource: "markdownSource",
  eventSearchQuery: "searchQuery",
  eventSearchResultRecordId: "searchResultRecordId",
  eventPageFeedbackRating: "pageFeedbackRating",
  eventPageFeedbackComment: "pageFeedbackComment",
  eventAskResponseRating: "askResponseRating",
  referrer: "referrer",
  referrerDomain: "referrerDomain",
  utmSource: "utmSource",
  utmMedium: "utmMedium",
  utmCampaign: "utmCampaign",
  utmTerm: "utmTerm",
  utmContent: "utmContent",
  eventAdDomain: "adDomain",
  eventAdPlacement: "adPlacement",
  eventTrademarkPlacement: "trademarkPlacement"
} as const satisfies Record<string, keyof StoredEvent>
export type FieldColumnName = keyof typeof fieldColumns

export const metricColumns = ["eventsCount", "sessionsCount", "visitorsCount", "pageFeedbackRating", "askResponseRating"] as const
export type MetricColumnName = typeof metricColumns[number]

export type Interval = "hour" | "day" | "week" | "month"

/** A column of a resolved query. */
export type QueryColumn =
  /** The start of the event's bucket, in UTC; weeks start on Monday. Values are ISO strings. */
  | { readonly kind: "datetime"; readonly interval: Interval }
  /** 1 (Monday) to 7 (Sunday), UTC. */
  | { readonly kind: "dayOfWeek" }
  /** 0 to 23, UTC. */
  | { readonly kind: "hourOfDay" }
  | { readonly kind: "field"; readonly column: FieldColumnName }
  /** The claim at the dot path, as a string (a JSON text for objects and arrays); null when absent. */
  | { readonly kind: "visitorClaim"; readonly claim: string }
  /** A dimension no stored event has (GitBook's `eventPageNotFoundType`): always null. */
  | { readonly kind: "none"; readonly column: string }
  | { readonly kind: "metric"; readonly metric: MetricColumnName }

export type QueryOperator = "in" | "notIn" | "greaterThan" | "greaterThanOrEqual" | "lessThan" | "lessThanOrEqual"

/** A value an event has for a column as stored (the page id alone for `page`), or a filter names: null stands for a missing value. */
export type QueryValue = string | number | boolean | null

/**
 * What the `page` column answers [SiteInsightsQueryEventsValues]: a page of a space, its `page`
 * null when the event names the space but no page. An event that names no space answers null.
 */
export interface PageValue {
  readonly page: string | null
  readonly space: string
}

/** The value a dimension answers: a PageValue or null for `page`, a QueryValue for every other. */
export type DimensionValue = QueryValue | PageValue

export interface QueryFilter {
  readonly column: QueryColumn
  readonly operator: QueryOperator
  /** At least one; exactly one for the range operators. `datetime` values are epoch milliseconds. */
  readonly values: ReadonlyArray<QueryValue>
}

/** A validated query with its range made absolute. */
export interface ResolvedQuery {
  readonly siteId: SiteId
  /** The columns answered, in order: the dimensions of `groupBy` and metrics. */
  readonly select: ReadonlyArray<QueryColumn>
  readonly groupBy: ReadonlyArray<QueryColumn>
  /** Dimension filters apply to events; range operators on metrics apply to groups (HAVING). */
  readonly where: ReadonlyArray<QueryFilter>
  /** An index into `select`. */
  readonly order: { readonly by: number; readonly direction: "asc" | "desc" }
  /** Half-open: from ≤ timestamp < to. */
  readonly range: { readonly from: Date; readonly to: Date }
  readonly limit: number
}

/**
 * One metric's value in a row: a count, or GitBook's rating breakdowns
 * (`pageFeedbackRating {ok, good, bad}`, `askResponseRating {positive, negative}`).
 */
export type MetricValue =
  | number
  | { readonly ok: number; readonly good: number; readonly bad: number }
  | { readonly positive: number; readonly negative: number }

/** The answer's rows, ordered and limited: each one value per selected column, in `select` order. */
export type QueryResult = ReadonlyArray<ReadonlyArray<DimensionValue | MetricValue>>
