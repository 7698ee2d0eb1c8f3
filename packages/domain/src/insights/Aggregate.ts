import { Effect, Schema } from "effect"
import { InvalidInput } from "../shared/Errors.js"
import { PageId, type SiteId, SpaceId } from "../shared/Ids.js"
import { StoredString } from "../shared/Limits.js"
import type { StoredEvent } from "./Event.js"
import type { SegmentCount } from "./Ports.js"
import type {
  DimensionValue,
  FieldColumnName,
  Interval,
  MetricColumnName,
  MetricValue,
  PageValue,
  QueryColumn,
  QueryFilter,
  QueryOperator,
  QueryResult,
  QueryValue,
  ResolvedQuery
} from "./Query.js"
import { fieldColumns, metricColumns } from "./Query.js"

// Aggregate queries (conventions-2.md §2, "Aggregate"): the request body, its validation into a
// ResolvedQuery, and the reference evaluation every adapter must reproduce.

/** Every column GitBook's SiteInsightsQueryEventsColumn names. */
export const aggregateColumnNames = [
  "datetime",
  "dayOfWeek",
  "hourOfDay",
  ...(Object.keys(fieldColumns) as Array<FieldColumnName>),
  ...metricColumns,
  "visitorClaim",
  "visitorClaimProperty",
  "visitorGeoPoint",
  "eventPageNotFoundType"
] as const

const ColumnName = Schema.Literal(...aggregateColumnNames)
const IntervalSchema = Schema.Literal("hour", "day", "week", "month")

/** A column as the request names it [SiteInsightsQueryEventsColumn]. */
export const AggregateColumn = Schema.Struct({
  column: ColumnName,
  interval: Schema.optional(IntervalSchema),
  claim: Schema.optional(StoredString),
  precision: Schema.optional(Schema.Int.pipe(Schema.between(0, 15)))
})
export type AggregateColumn = typeof AggregateColumn.Type

/** GitBook's `page` filter value: a page of a space; the page id alone is matched. */
const PageRef = Schema.Struct({ page: Schema.NullOr(PageId), space: SpaceId })

/** A filter [SiteInsightsQueryEventsFilter]. */
export const AggregateFilter = Schema.Struct({
  column: ColumnName,
  claim: Schema.optional(StoredString),
  // Values are compared in storage: their strings are StoredStrings, as every string that reaches it.
  values: Schema.Array(Schema.Union(StoredString, Schema.Number, Schema.Boolean, Schema.Null, PageRef)),
  operator: Schema.optional(
    Schema.Literal("in", "notIn", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual")
  )
})
export type AggregateFilter = typeof AggregateFilter.Type

export const rangePresets = ["last24Hours", "last7Days", "last30Days", "last3Months", "lastYear"] as const
export const AggregateRange = Schema.Union(
  Schema.Literal(...rangePresets),
  Schema.Struct({ from: StoredString, to: StoredString })
)
export type AggregateRange = typeof AggregateRange.Type

export const maxAggregateLimit = 1000

/** The body of an aggregate query [SiteInsightsQueryEventsAggregation]. */
export const AggregateInput = Schema.Struct({
  select: Schema.optional(Schema.Array(AggregateColumn)),
  where: Schema.optional(Schema.Array(AggregateFilter)),
  groupBy: Schema.optional(Schema.Array(AggregateColumn)),
  order: Schema.optional(Schema.Struct({ by: AggregateColumn, direction: Schema.Literal("asc", "desc") })),
  range: AggregateRange,
  limit: Schema.optional(Schema.Int.pipe(Schema.between(1, maxAggregateLimit)))
})
export type AggregateInput = typeof AggregateInput.Type

// ---------------------------------------------------------------------------------------------
// Resolution

const invalid = (field: string, rule: string) => new InvalidInput({ field, rule })

const isMetricName = (name: string): name is MetricColumnName => (metricColumns as ReadonlyArray<string>).includes(name)
const isFieldName = (name: string): name is FieldColumnName => Object.prototype.hasOwnProperty.call(fieldColumns, name)

/** A claim path: dot-separated names, none empty, 1-256 characters in all. */
const validClaimPath = (claim: string) => claim.length >= 1 && claim.length <= 256 && claim.split(".").every((s) => s !== "")

const resolveColumn = (
  at: string,
  name: string,
  interval: Interval | undefined,
  claim: string | undefined
): Effect.Effect<QueryColumn, InvalidInput> => {
  if (name === "visitorGeoPoint") return Effect.fail(invalid(`${at}.column`, "visitorGeoPoint is not supported"))
  if (name === "datetime") return Effect.succeed({ kind: "datetime", interval: interval ?? "day" })
  if (name === "dayOfWeek") return Effect.succeed({ kind: "dayOfWeek" })
  if (name === "hourOfDay") return Effect.succeed({ kind: "hourOfDay" })
  if (name === "visitorClaim") {
    if (claim === undefined) return Effect.fail(invalid(`${at}.claim`, "visitorClaim needs a claim"))
    if (!validClaimPath(claim)) {
      return Effect.fail(invalid(`${at}.claim`, "must be a dot path of 1-256 characters with no empty name"))
    }
    return Effect.succeed({ kind: "visitorClaim", claim })
  }
  if (isMetricName(name)) return Effect.succeed({ kind: "metric", metric: name })
  if (isFieldName(name)) return Effect.succeed({ kind: "field", column: name })
  // eventPageNotFoundType: Octavo stores no such field. visitorClaimProperty: GitBook leaves it
  // undescribed and one event has many claim names, so no single value; both are always null.
  if (name === "eventPageNotFoundType" || name === "visitorClaimProperty") {
    return Effect.succeed({ kind: "none", column: name })
  }
  return Effect.fail(invalid(`${at}.column`, `unknown column ${name}`))
}

/** Whether two resolved columns are the same column (same interval, same claim). */
export const sameColumn = (a: QueryColumn, b: QueryColumn): boolean => {
  switch (a.kind) {
    case "datetime":
      return b.kind === "datetime" && a.interval === b.interval
    case "dayOfWeek":
    case "hourOfDay":
      return b.kind === a.kind
    case "field":
      return b.kind === "field" && a.column === b.column
    case "visitorClaim":
      return b.kind === "visitorClaim" && a.claim === b.claim
    case "none":
      return b.kind === "none" && a.column === b.column
    case "metric":
      return b.kind === "metric" && a.metric === b.metric
  }
}

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i

/** Epoch milliseconds of an ISO 8601 date-time with a zone, or undefined. */
const parseTimestamp = (text: string): number | undefined => {
  if (!isoTimestamp.test(text)) return undefined
  const ms = Date.parse(text)
  return Number.isNaN(ms) ? undefined : ms
}

/** The same instant `months` calendar months earlier (or later), in UTC; a missing day is the month's last. */
export const addUtcMonths = (date: Date, months: number): Date => {
  const year = date.getUTCFullYear()
  const month = date.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const result = new Date(date.getTime())
  result.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay))
  return result
}

const hour = 3_600_000
const day = 24 * hour

const resolveRange = (
  range: AggregateRange,
  now: Date
): Effect.Effect<{ readonly from: Date; readonly to: Date }, InvalidInput> => {
  switch (range) {
    case "last24Hours":
      return Effect.succeed({ from: new Date(now.getTime() - day), to: now })
    case "last7Days":
      return Effect.succeed({ from: new Date(now.getTime() - 7 * day), to: now })
    case "last30Days":
      return Effect.succeed({ from: new Date(now.getTime() - 30 * day), to: now })
    case "last3Months":
      return Effect.succeed({ from: addUtcMonths(now, -3), to: now })
    case "lastYear":
      return Effect.succeed({ from: addUtcMonths(now, -12), to: now })
  }
  const from = parseTimestamp(range.from)
  if (from === undefined) return Effect.fail(invalid("range.from", "must be an ISO 8601 date-time with a time zone"))
  const to = parseTimestamp(range.to)
  if (to === undefined) return Effect.fail(invalid("range.to", "must be an ISO 8601 date-time with a time zone"))
  if (from >= to) return Effect.fail(invalid("range.to", "must be after range.from"))
  if (to > addUtcMonths(new Date(from), 12).getTime()) {
    return Effect.fail(invalid("range.to", "the range may span at most 1 year"))
  }
  return Effect.succeed({ from: new Date(from), to: new Date(to) })
}

type FieldValueType = "string" | "number" | "boolean"
const fieldValueType = (column: FieldColumnName): FieldValueType =>
  column === "visitorAuthenticated" ? "boolean" : column === "eventAskResponseRating" ? "number" : "string"

const isRangeOperator = (op: QueryOperator) => op !== "in" && op !== "notIn"

const resolveFilter = (
  at: string,
  filter: AggregateFilter
): Effect.Effect<QueryFilter, InvalidInput> =>
  Effect.gen(function*() {
    const column = yield* resolveColumn(at, filter.column, undefined, filter.claim)
    const operator: QueryOperator = filter.operator ?? "in"
    const valuesAt = `${at}.values`
    if (filter.values.length === 0) return yield* invalid(valuesAt, "needs at least one value")
    const range = isRangeOperator(operator)
    if (range) {
      const rangeable = column.kind === "datetime" || column.kind === "dayOfWeek" || column.kind === "hourOfDay" ||
        (column.kind === "metric" &&
          (column.metric === "eventsCount" || column.metric === "sessionsCount" || column.metric === "visitorsCount"))
      if (!rangeable) {
        return yield* invalid(
          `${at}.operator`,
          `${operator} applies to datetime, dayOfWeek, hourOfDay, eventsCount, sessionsCount and visitorsCount only`
        )
      }
      if (filter.values.length !== 1) return yield* invalid(valuesAt, `${operator} takes exactly one value`)
    } else if (column.kind === "metric") {
      return yield* invalid(`${at}.operator`, `${operator} does not apply to a metric`)
    }
    const values: Array<QueryValue> = []
    for (const value of filter.values) {
      const resolved = resolveFilterValue(column, value)
      if (resolved === undefined) return yield* invalid(valuesAt, valueRule(column))
      values.push(resolved.value)
    }
    return { column, operator, values }
  })

const valueRule = (column: QueryColumn): string => {
  switch (column.kind) {
    case "datetime":
      return "must be ISO 8601 date-times with a time zone"
    case "dayOfWeek":
      return "must be integers from 1 to 7"
    case "hourOfDay":
      return "must be integers from 0 to 23"
    case "metric":
      return "must be a number"
    case "visitorClaim":
      return "must be strings or null"
    case "none":
      return "must be null"
    case "field":
      return `must be ${fieldValueType(column.column)}s or null`
  }
}

const resolveFilterValue = (
  column: QueryColumn,
  value: AggregateFilter["values"][number]
): { readonly value: QueryValue } | undefined => {
  switch (column.kind) {
    case "datetime": {
      const ms = typeof value === "string" ? parseTimestamp(value) : undefined
      return ms === undefined ? undefined : { value: ms }
    }
    case "dayOfWeek":
      return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 7 ? { value } : undefined
    case "hourOfDay":
      return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 23 ? { value } : undefined
    case "metric":
      return typeof value === "number" && Number.isFinite(value) ? { value } : undefined
    case "visitorClaim":
      return value === null || typeof value === "string" ? { value } : undefined
    case "none":
      return value === null ? { value } : undefined
    case "field": {
      if (value === null) return { value }
      if (typeof value === "object") return column.column === "page" ? { value: value.page } : undefined
      // GitBook's "" among visitorBot values stands for "no bot", which is stored as null.
      if (column.column === "visitorBot" && value === "") return { value: null }
      return typeof value === fieldValueType(column.column) ? { value } : undefined
    }
  }
}

/**
 * Validates an aggregate query and makes its range absolute (conventions-2.md §2, "Aggregate").
 * Fails with InvalidInput naming the field, e.g. `select.2.column`, `where.0.values`, `range.to`.
 */
export const resolveQuery = (
  siteId: SiteId,
  input: AggregateInput,
  now: Date
): Effect.Effect<ResolvedQuery, InvalidInput> =>
  Effect.gen(function*() {
    const groupBy: Array<QueryColumn> = []
    for (const [i, c] of (input.groupBy ?? []).entries()) {
      const column = yield* resolveColumn(`groupBy.${i}`, c.column, c.interval, c.claim)
      if (column.kind === "metric") return yield* invalid(`groupBy.${i}.column`, "groupBy takes dimensions only")
      groupBy.push(column)
    }
    let select: Array<QueryColumn>
    if (input.select === undefined) {
      select = [...groupBy, { kind: "metric", metric: "eventsCount" }]
    } else {
      if (input.select.length === 0) return yield* invalid("select", "needs at least one column")
      select = []
      for (const [i, c] of input.select.entries()) {
        const column = yield* resolveColumn(`select.${i}`, c.column, c.interval, c.claim)
        if (column.kind !== "metric" && !groupBy.some((g) => sameColumn(g, column))) {
          return yield* invalid(`select.${i}.column`, "a selected dimension must also be in groupBy")
        }
        select.push(column)
      }
    }
    const where: Array<QueryFilter> = []
    for (const [i, f] of (input.where ?? []).entries()) where.push(yield* resolveFilter(`where.${i}`, f))
    let order: ResolvedQuery["order"]
    if (input.order !== undefined) {
      const by = input.order.by
      const column = yield* resolveColumn("order.by", by.column, by.interval, by.claim)
      const index = select.findIndex((s) => sameColumn(s, column))
      if (index < 0) return yield* invalid("order.by", "must be a selected column")
      order = { by: index, direction: input.order.direction }
    } else {
      const datetime = select.findIndex((s) => s.kind === "datetime")
      const metric = select.findIndex((s) => s.kind === "metric")
      order = datetime >= 0
        ? { by: datetime, direction: "asc" }
        : metric >= 0
        ? { by: metric, direction: "desc" }
        : { by: 0, direction: "asc" }
    }
    const range = yield* resolveRange(input.range, now)
    return { siteId, select, groupBy, where, order, range, limit: input.limit ?? maxAggregateLimit }
  })

// ---------------------------------------------------------------------------------------------
// Reference evaluation

/**
 * The value at a claim path: own properties of JSON objects only (an array is not walked into);
 * undefined when some name is absent.
 */
const valueAtPath = (claims: unknown, path: ReadonlyArray<string>): unknown => {
  let current: unknown = claims
  for (const name of path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined
    if (!Object.prototype.hasOwnProperty.call(current, name)) return undefined
    current = (current as Record<string, unknown>)[name]
  }
  return current
}

/** A claim as a string: strings as they are, numbers and booleans by String(), others as JSON; null when absent or JSON null. */
export const claimText = (claims: unknown, claim: string): string | null => {
  const value = valueAtPath(claims, claim.split("."))
  if (value === undefined || value === null) return null
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  return JSON.stringify(value)
}

/** The UTC start of the timestamp's bucket, as an ISO string with milliseconds; weeks start on Monday. */
export const bucketStart = (timestamp: Date, interval: Interval): string => {
  const y = timestamp.getUTCFullYear()
  const m = timestamp.getUTCMonth()
  const d = timestamp.getUTCDate()
  switch (interval) {
    case "hour":
      return new Date(Date.UTC(y, m, d, timestamp.getUTCHours())).toISOString()
    case "day":
      return new Date(Date.UTC(y, m, d)).toISOString()
    case "week":
      return new Date(Date.UTC(y, m, d - dayOfWeek(timestamp) + 1)).toISOString()
    case "month":
      return new Date(Date.UTC(y, m, 1)).toISOString()
  }
}

/** 1 (Monday) to 7 (Sunday), in UTC. */
const dayOfWeek = (timestamp: Date): number => ((timestamp.getUTCDay() + 6) % 7) + 1

/**
 * The page an event was on, as the `page` column answers it: GitBook names a page by its space, so
 * an event that names no space answers null (its page id, if any, cannot be told apart from another
 * space's), and one that names a space but no page answers `{page: null, space}`.
 */
export const pageValue = (event: StoredEvent): PageValue | null => event.space === null ? null : { page: event.page, space: event.space }

/** What a column says of an event as stored: for `page`, the page id alone. */
const storedValue = (event: StoredEvent, column: QueryColumn): QueryValue => {
  switch (column.kind) {
    case "datetime":
      return bucketStart(event.timestamp, column.interval)
    case "dayOfWeek":
      return dayOfWeek(event.timestamp)
    case "hourOfDay":
      return event.timestamp.getUTCHours()
    case "field":
      return event[fieldColumns[column.column]]
    case "visitorClaim":
      return claimText(event.visitorClaims, column.claim)
    case "none":
    case "metric":
      return null
  }
}

/** What a dimension column answers for an event, and groups by: the page of its space for `page`. */
export const dimensionValue = (event: StoredEvent, column: QueryColumn): DimensionValue =>
  column.kind === "field" && column.column === "page" ? pageValue(event) : storedValue(event, column)

/**
 * What a filter compares: the timestamp in milliseconds for datetime, else the stored value, so
 * that a `page` filter matches the page id alone, whatever the space.
 */
const filteredValue = (event: StoredEvent, column: QueryColumn): QueryValue =>
  column.kind === "datetime" ? event.timestamp.getTime() : storedValue(event, column)

const compareOperator = (operator: QueryOperator, actual: number, bound: number): boolean => {
  switch (operator) {
    case "greaterThan":
      return actual > bound
    case "greaterThanOrEqual":
      return actual >= bound
    case "lessThan":
      return actual < bound
    case "lessThanOrEqual":
      return actual <= bound
    case "in":
      return actual === bound
    case "notIn":
      return actual !== bound
  }
}

/** in / notIn treat null as a value: `in [null]` matches a missing value, `notIn ["x"]` keeps it. */
const matches = (filter: QueryFilter, value: QueryValue): boolean => {
  switch (filter.operator) {
    case "in":
      return filter.values.some((v) => v === value)
    case "notIn":
      return !filter.values.some((v) => v === value)
    default:
      return typeof value === "number" && typeof filter.values[0] === "number" &&
        compareOperator(filter.operator, value, filter.values[0])
  }
}

const computeMetric = (events: ReadonlyArray<StoredEvent>, metric: MetricColumnName): MetricValue => {
  switch (metric) {
    case "eventsCount":
      return events.length
    case "sessionsCount":
      return new Set(events.map((e) => e.sessionId)).size
    case "visitorsCount":
      return new Set(events.map((e) => e.visitorId)).size
    case "pageFeedbackRating": {
      const count = (rating: string) => events.filter((e) => e.pageFeedbackRating === rating).length
      return { ok: count("ok"), good: count("good"), bad: count("bad") }
    }
    case "askResponseRating": {
      const count = (rating: number) => events.filter((e) => e.askResponseRating === rating).length
      return { positive: count(1), negative: count(-1) }
    }
  }
}

/** Strings compare by Unicode code point (as UTF-8 bytes do: PostgreSQL's `COLLATE "C"`). */
const compareStrings = (a: string, b: string): number => {
  const ai = a[Symbol.iterator]()
  const bi = b[Symbol.iterator]()
  for (;;) {
    const x = ai.next()
    const y = bi.next()
    if (x.done === true) return y.done === true ? 0 : -1
    if (y.done === true) return 1
    const cx = x.value.codePointAt(0)!
    const cy = y.value.codePointAt(0)!
    if (cx !== cy) return cx < cy ? -1 : 1
  }
}

/** A rating breakdown sorts by its total, then by its counts in GitBook's order. */
const sortKey = (value: MetricValue): ReadonlyArray<number> =>
  typeof value === "number"
    ? [value]
    : "ok" in value
    ? [value.ok + value.good + value.bad, value.ok, value.good, value.bad]
    : [value.positive + value.negative, value.positive, value.negative]

const isPageValue = (value: DimensionValue | MetricValue): value is PageValue =>
  typeof value === "object" && value !== null && "space" in value

/** Ascending order of one column's values; null sorts first, and pages by page id (none first), then space. */
export const compareValues = (a: DimensionValue | MetricValue, b: DimensionValue | MetricValue): number => {
  if (a === null || b === null) return a === null ? (b === null ? 0 : -1) : 1
  if (isPageValue(a) && isPageValue(b)) return compareValues(a.page, b.page) || compareStrings(a.space, b.space)
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b)
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1
  if (typeof a === "object" || typeof b === "object" || (typeof a === "number" && typeof b === "number")) {
    const ka = sortKey(a as MetricValue)
    const kb = sortKey(b as MetricValue)
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      if (ka[i]! !== kb[i]!) return ka[i]! < kb[i]! ? -1 : 1
    }
    return 0
  }
  // Values of one column share a type; this only orders stray mixes deterministically.
  return compareStrings(typeof a, typeof b)
}

/**
 * The reference answer to a query (what the memory adapter returns and PostgreSQL must match):
 * 1. events of the site with from ≤ timestamp < to that pass every dimension filter;
 * 2. grouped by the values the groupBy columns answer (no groupBy: one group, even when it is
 *    empty): `page` by the page of its space, every event of no space in one group;
 * 3. metric filters (HAVING) drop groups;
 * 4. rows sorted by the order column in its direction (asc: nulls first; desc: the reverse, nulls
 *    last), ties broken by every selected column in select order, ascending with nulls first;
 *    strings by code point, false before true, pages by page id (none first) then space, rating
 *    breakdowns by total then counts;
 * 5. the first `limit` rows, each the selected values in select order.
 */
export const evaluateQuery = (events: ReadonlyArray<StoredEvent>, query: ResolvedQuery): QueryResult => {
  const from = query.range.from.getTime()
  const to = query.range.to.getTime()
  const eventFilters = query.where.filter((f) => f.column.kind !== "metric")
  const groupFilters = query.where.filter((f) => f.column.kind === "metric")
  const kept = events.filter((e) => {
    if (e.siteId !== query.siteId) return false
    const t = e.timestamp.getTime()
    if (t < from || t >= to) return false
    return eventFilters.every((f) => matches(f, filteredValue(e, f.column)))
  })
  const groups = new Map<string, { key: ReadonlyArray<DimensionValue>; events: Array<StoredEvent> }>()
  if (query.groupBy.length === 0) groups.set("", { key: [], events: [] })
  for (const event of kept) {
    const key = query.groupBy.map((c) => dimensionValue(event, c))
    const id = query.groupBy.length === 0 ? "" : JSON.stringify(key)
    const group = groups.get(id)
    if (group === undefined) groups.set(id, { key, events: [event] })
    else group.events.push(event)
  }
  const rows: Array<ReadonlyArray<DimensionValue | MetricValue>> = []
  for (const group of groups.values()) {
    const having = groupFilters.every((f) =>
      f.column.kind === "metric" && matches(f, computeMetric(group.events, f.column.metric) as number)
    )
    if (!having) continue
    rows.push(query.select.map((column) => {
      if (column.kind === "metric") return computeMetric(group.events, column.metric)
      const index = query.groupBy.findIndex((g) => sameColumn(g, column))
      return index >= 0 ? group.key[index]! : null
    }))
  }
  const { by, direction } = query.order
  const sign = direction === "asc" ? 1 : -1
  rows.sort((a, b) => {
    const first = sign * compareValues(a[by]!, b[by]!)
    if (first !== 0) return first
    for (let i = 0; i < a.length; i++) {
      const c = compareValues(a[i]!, b[i]!)
      if (c !== 0) return c
    }
    return 0
  })
  return rows.slice(0, query.limit)
}

// ---------------------------------------------------------------------------------------------
// Visitor segments

/** A claim as a segment value: a JSON string, number or boolean; null when absent or not one of these. */
const segmentValue = (claims: unknown, path: ReadonlyArray<string>): QueryValue => {
  const value = valueAtPath(claims, path)
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : null
}

/**
 * The reference for `InsightsRepository.segments`: the site's events at or after `since`, grouped
 * by the values at `paths`, with events, distinct visitors and distinct sessions; in no set order.
 */
export const evaluateSegments = (
  events: ReadonlyArray<StoredEvent>,
  siteId: SiteId,
  paths: ReadonlyArray<ReadonlyArray<string>>,
  since: Date
): ReadonlyArray<SegmentCount> => {
  const groups = new Map<
    string,
    { values: ReadonlyArray<QueryValue>; events: number; visitors: Set<string>; sessions: Set<string> }
  >()
  for (const event of events) {
    if (event.siteId !== siteId || event.timestamp.getTime() < since.getTime()) continue
    const values = paths.map((path) => segmentValue(event.visitorClaims, path))
    const id = JSON.stringify(values)
    let group = groups.get(id)
    if (group === undefined) {
      group = { values, events: 0, visitors: new Set(), sessions: new Set() }
      groups.set(id, group)
    }
    group.events += 1
    group.visitors.add(event.visitorId)
    group.sessions.add(event.sessionId)
  }
  return [...groups.values()].map((g) => ({
    values: g.values,
    events: g.events,
    visitors: g.visitors.size,
    sessions: g.sessions.size
  }))
}
