import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import {
  type DimensionValue,
  fieldColumns,
  InsightsRepository,
  type Interval,
  type MetricColumnName,
  type MetricValue,
  type QueryColumn,
  type QueryFilter,
  type QueryValue,
  type ResolvedQuery,
  sameColumn,
  type SegmentCount,
  StoredEvent
} from "@octavo/domain"
import { Effect, Layer, Ref } from "effect"

// Site insights (conventions-2.md §2) over `insight_events`, partitioned by month: an aggregate
// query compiles into one statement whose answer is `evaluateQuery`'s (the domain's reference).

// Partitions are created by whichever server appends first; any constant will do as long as every server uses it.
const PARTITION_LOCK = "7244617236240192"

/** The month a partition holds: [from, to) in epoch milliseconds, and its table's name. */
const partitionOf = (monthStart: number) => {
  const start = new Date(monthStart)
  const year = start.getUTCFullYear()
  const month = start.getUTCMonth()
  return {
    name: `insight_events_${String(year).padStart(4, "0")}_${String(month + 1).padStart(2, "0")}`,
    from: monthStart,
    to: Date.UTC(year, month + 1, 1)
  }
}

const monthStartOf = (ms: number) => {
  const date = new Date(ms)
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)
}

/** `insight_events_2026_11` → the start of November 2026; undefined for a name not made by `partitionOf`. */
const monthOfPartition = (name: string): number | undefined => {
  const match = /^insight_events_(\d{4})_(\d{2})$/.exec(name)
  return match === null ? undefined : Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)
}

/** "no partition of relation … found for row" (SQLSTATE 23514): a month another server has purged. */
const noPartition = (error: SqlError): boolean => {
  const cause: unknown = error.cause
  return typeof cause === "object" && cause !== null && "code" in cause && cause.code === "23514"
}

/** `visitorOS` → `visitor_os`: the column `rowOf` derives for a field. */
const columnOf = (field: string): string => field.replace(/([a-z0-9])([A-Z]+)/g, "$1_$2").toLowerCase()

/** Each field of a stored event and its column. */
const eventColumns = Object.keys(StoredEvent.fields).map((field) => [field, columnOf(field)] as const)

/**
 * A batch as the JSON text of its rows, which `json_populate_recordset` reads in one parameter: the
 * row type's columns by name (none for NULL), the timestamp in epoch milliseconds, the claims as their
 * JSON (a json column keeps the text it is given). Cheaper, for both the process and the server, than one
 * parameter per column of every row.
 */
const rowsJson = (events: ReadonlyArray<StoredEvent>): string =>
  JSON.stringify(events.map((event) => {
    const row: Record<string, unknown> = {}
    for (const [field, column] of eventColumns) {
      const value = event[field as keyof StoredEvent]
      // A column the row leaves out is NULL: most of an event's columns are its type's others.
      if (value !== null) row[column] = value instanceof Date ? value.getTime() : value
    }
    return row
  }))

const HOUR = 3_600_000
/** The event's day, counted from 1970-01-01 (UTC). */
const DAY_NUMBER = `(e."timestamp" / ${HOUR * 24})`

/** How a dimension's values are typed, in SQL and in JavaScript (what a filter value must be to match). */
type ValueType = "string" | "number" | "boolean"

interface Dimension {
  readonly expression: Fragment
  readonly type: ValueType
  /** Reads the driver's value back into the reference's. */
  readonly read: (value: unknown) => QueryValue
}

/**
 * A dimension as it is grouped by and answered: its parts, in the order they sort by (one but for
 * `page`, which is a page id and a space id), and how a row's values of them read back into the
 * reference's `dimensionValue`.
 */
interface Grouping {
  readonly parts: ReadonlyArray<Fragment>
  readonly read: (values: ReadonlyArray<unknown>) => DimensionValue
}

const asString = (value: unknown): QueryValue => value === null ? null : String(value)
const asNumber = (value: unknown): QueryValue => value === null ? null : Number(value)
const asBoolean = (value: unknown): QueryValue => value === null ? null : value === true || value === "t"
const asBucket = (value: unknown): QueryValue => value === null ? null : new Date(Number(value)).toISOString()

export const InsightsRepositoryLive = Layer.effect(
  InsightsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const list = sql.join(", ", false)
    /** The months whose partitions this server has seen exist. */
    const knownMonths = yield* Ref.make<ReadonlySet<number>>(new Set())

    const createPartitions = (months: ReadonlyArray<number>) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(${sql.literal(PARTITION_LOCK)})`
        for (const month of months) {
          const { from, name, to } = partitionOf(month)
          // The name and bounds are made of numbers only.
          yield* sql.unsafe(
            `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF insight_events FOR VALUES FROM (${from}) TO (${to})`
          )
        }
      })).pipe(Effect.zipRight(Ref.update(knownMonths, (known) => new Set([...known, ...months]))))

    const ensurePartitions = (months: ReadonlyArray<number>) =>
      Effect.flatMap(Ref.get(knownMonths), (known) => {
        const missing = months.filter((month) => !known.has(month))
        return missing.length === 0 ? Effect.void : createPartitions(missing)
      })

    /**
     * The start of the event's bucket in epoch milliseconds, UTC. Hours, days and weeks are integer
     * arithmetic on the timestamp (timestamps are after 1970, so `%` is a floor); a month needs the calendar.
     */
    const bucketOf = (interval: Interval): Fragment => {
      switch (interval) {
        case "hour":
          return sql.literal(`(e."timestamp" - e."timestamp" % ${HOUR})`)
        case "day":
          return sql.literal(`(e."timestamp" - e."timestamp" % ${HOUR * 24})`)
        case "week":
          // Day 0 (1970-01-01) was a Thursday: a Monday is 3 days after a day number divisible by 7.
          return sql.literal(`((${DAY_NUMBER} - (${DAY_NUMBER} + 3) % 7) * ${HOUR * 24})`)
        case "month":
          return sql.literal(
            `(extract(epoch FROM date_trunc('month', to_timestamp(e."timestamp" / 1000) AT TIME ZONE 'UTC')) * 1000)::bigint`
          )
      }
    }

    /**
     * The claim at a path, as json: NULL when absent or when the path would walk into an array (the
     * reference walks objects only). The claims are stored as json, the text JSON.stringify wrote, so a
     * number, an object or an array reads back as the very text the reference makes of it.
     */
    const claimAt = (path: ReadonlyArray<string>): { readonly value: Fragment; readonly walkable: Fragment } => {
      const array = (names: ReadonlyArray<string>) => sql`ARRAY[${list(names.map((name) => sql`${name}::text`))}]::text[]`
      // #> takes a name of digits as an index into an array; the reference does not.
      const objects = path.flatMap((name, i) =>
        /\d/.test(name)
          ? [sql`json_typeof(${i === 0 ? sql`e.visitor_claims` : sql`e.visitor_claims #> ${array(path.slice(0, i))}`}) = 'object'`]
          : []
      )
      return { value: sql`(e.visitor_claims #> ${array(path)})`, walkable: objects.length === 0 ? sql`TRUE` : sql.and(objects) }
    }

    const dimension = (column: QueryColumn): Dimension => {
      switch (column.kind) {
        case "datetime":
          return { expression: bucketOf(column.interval), type: "number", read: asBucket }
        case "dayOfWeek":
          return { expression: sql.literal(`((${DAY_NUMBER} + 3) % 7 + 1)`), type: "number", read: asNumber }
        case "hourOfDay":
          return { expression: sql.literal(`(e."timestamp" % ${HOUR * 24} / ${HOUR})`), type: "number", read: asNumber }
        case "field": {
          const expression = sql.literal(`e.${columnOf(fieldColumns[column.column])}`)
          return column.column === "visitorAuthenticated"
            ? { expression, type: "boolean", read: asBoolean }
            : column.column === "eventAskResponseRating"
            ? { expression, type: "number", read: asNumber }
            : { expression, type: "string", read: asString }
        }
        case "visitorClaim": {
          const { value, walkable } = claimAt(column.claim.split("."))
          // Strings as they are, numbers and booleans as their JSON text, JSON null as absent.
          return {
            expression: sql`(CASE WHEN NOT ${walkable} THEN NULL
              WHEN json_typeof(${value}) = 'string' THEN ${value} #>> '{}'
              WHEN json_typeof(${value}) = 'null' THEN NULL
              ELSE ${value}::text END) COLLATE "C"`,
            type: "string",
            read: asString
          }
        }
        case "none":
          return { expression: sql`NULL::text`, type: "string", read: asString }
        case "metric":
          throw new Error("a metric is not a dimension")
      }
    }

    const grouping = (column: QueryColumn): Grouping => {
      if (column.kind === "field" && column.column === "page") {
        // As the reference's pageValue: a page id and its space, sorted in that order. Without a space
        // the page id is dropped too, so that every such event is one group, (NULL, NULL), which sorts
        // before any page of a space as the reference's null does.
        return {
          parts: [sql`(CASE WHEN e.space IS NULL THEN NULL ELSE e.page END)`, sql`e.space`],
          read: ([page, space]) =>
            space === null || space === undefined
              ? null
              : { page: page === null || page === undefined ? null : String(page), space: String(space) }
        }
      }
      const { expression, read } = dimension(column)
      return { parts: [expression], read: ([value]) => read(value ?? null) }
    }

    const typedValue = (value: QueryValue, type: ValueType): Fragment =>
      type === "number" ? sql`${value}::numeric` : type === "boolean" ? sql`${value}::boolean` : sql`${value}::text`

    /** A filter on `target` with the reference's `matches`: strict equality, null a value like any other. */
    const condition = (target: Fragment, type: ValueType | "breakdown", filter: QueryFilter): Fragment => {
      if (filter.operator === "in" || filter.operator === "notIn") {
        // A rating breakdown equals no value.
        if (type === "breakdown") return sql.literal(filter.operator === "in" ? "FALSE" : "TRUE")
        const withNull = filter.values.includes(null)
        const others = filter.values.filter((value) => typeof value === type)
        const listed = others.length === 0
          ? sql`FALSE`
          : sql`${target} IN (${list(others.map((value) => typedValue(value, type)))})`
        return filter.operator === "in"
          ? (withNull ? sql`(${target} IS NULL OR ${listed})` : listed)
          : (withNull ? sql`(${target} IS NOT NULL AND NOT ${listed})` : sql`(${target} IS NULL OR NOT ${listed})`)
      }
      const [bound] = filter.values
      if (type !== "number" || typeof bound !== "number") return sql`FALSE`
      const operator = {
        greaterThan: ">",
        greaterThanOrEqual: ">=",
        lessThan: "<",
        lessThanOrEqual: "<="
      }[filter.operator]
      return sql`${target} ${sql.literal(operator)} ${bound}::numeric`
    }

    const count = (metric: "eventsCount" | "sessionsCount" | "visitorsCount"): Fragment =>
      metric === "eventsCount"
        ? sql`count(*)`
        : sql.literal(metric === "sessionsCount" ? "count(DISTINCT g.session_id)" : "count(DISTINCT g.visitor_id)")

    /** A metric's output columns, by name, and the keys it sorts by (rating breakdowns: total, then counts). */
    const metricOutputs = (metric: MetricColumnName): {
      readonly parts: ReadonlyArray<readonly [name: string, aggregate: Fragment]>
      readonly sortKeys: ReadonlyArray<Fragment>
    } => {
      const where = (condition: string) => sql.literal(`count(*) FILTER (WHERE ${condition})`)
      switch (metric) {
        case "eventsCount":
        case "sessionsCount":
        case "visitorsCount":
          return { parts: [["count", count(metric)]], sortKeys: [count(metric)] }
        case "pageFeedbackRating": {
          const parts = (["ok", "good", "bad"] as const).map((rating) => [rating, where(`g.page_feedback_rating = '${rating}'`)] as const)
          return { parts, sortKeys: [where("g.page_feedback_rating IN ('ok', 'good', 'bad')"), ...parts.map(([, a]) => a)] }
        }
        case "askResponseRating": {
          const parts = [["positive", where("g.ask_response_rating = 1")], [
            "negative",
            where("g.ask_response_rating = -1")
          ]] as const
          return { parts, sortKeys: [where("g.ask_response_rating IN (1, -1)"), ...parts.map(([, a]) => a)] }
        }
      }
    }

    const aggregate = (query: ResolvedQuery) =>
      Effect.gen(function*() {
        const grouped = query.groupBy.map((column, i) => {
          const { parts, read } = grouping(column)
          return { parts: parts.map((expression, j) => ({ expression, alias: `d${i}_${j}` })), read }
        })
        const eventFilters = query.where.filter((filter) => filter.column.kind !== "metric").map((filter) =>
          filter.column.kind === "datetime"
            ? condition(sql`e."timestamp"`, "number", filter)
            : condition(dimension(filter.column).expression, dimension(filter.column).type, filter)
        )
        const groupFilters = query.where.flatMap((filter) => {
          const column = filter.column
          if (column.kind !== "metric") return []
          const metric = column.metric
          return metric === "eventsCount" || metric === "sessionsCount" || metric === "visitorsCount"
            ? [condition(count(metric), "number", filter)]
            : [condition(sql`NULL`, "breakdown", filter)]
        })

        const columns = query.select.map((column, i) => {
          if (column.kind === "metric") {
            const { parts, sortKeys } = metricOutputs(column.metric)
            return {
              outputs: parts.map(([name, aggregate]) => sql`${aggregate}::int AS ${sql.literal(`s${i}_${name}`)}`),
              sortKeys,
              read: (row: Record<string, unknown>): DimensionValue | MetricValue => {
                const values = Object.fromEntries(parts.map(([name]) => [name, Number(row[`s${i}_${name}`])]))
                return parts.length === 1 ? values["count"]! : values as unknown as MetricValue
              }
            }
          }
          const index = query.groupBy.findIndex((g) => sameColumn(g, column))
          const source = grouped[index]
          const values = source === undefined ? [sql`NULL`] : source.parts.map((part) => sql.literal(`g.${part.alias}`))
          return {
            outputs: values.map((value, j) => sql`${value} AS ${sql.literal(`s${i}_${j}`)}`),
            sortKeys: values,
            read: (row: Record<string, unknown>): DimensionValue | MetricValue =>
              source === undefined ? null : source.read(values.map((_, j) => row[`s${i}_${j}`] ?? null))
          }
        })
        const by = columns[query.order.by]
        const first = query.order.direction === "asc" ? "ASC NULLS FIRST" : "DESC NULLS LAST"
        const orderBy = [
          ...(by?.sortKeys ?? []).map((key) => sql`${key} ${sql.literal(first)}`),
          ...columns.flatMap((column) => column.sortKeys.map((key) => sql`${key} ASC NULLS FIRST`))
        ]

        const inner = sql`SELECT ${
          list([
            ...grouped.flatMap((d) => d.parts.map((part) => sql`${part.expression} AS ${sql.literal(part.alias)}`)),
            sql.literal("e.visitor_id, e.session_id, e.page_feedback_rating, e.ask_response_rating")
          ])
        }
          FROM insight_events e
          WHERE ${
          sql.and([
            sql`e.site_id = ${query.siteId}`,
            sql`e."timestamp" >= ${query.range.from.getTime()}`,
            sql`e."timestamp" < ${query.range.to.getTime()}`,
            ...eventFilters
          ])
        }`
        // Without groupBy there is one group, even an empty one: an aggregate with no GROUP BY.
        const groupBy = grouped.length === 0
          ? sql``
          : sql`GROUP BY ${sql.literal(grouped.flatMap((d) => d.parts.map((part) => `g.${part.alias}`)).join(", "))}`
        const having = groupFilters.length === 0 ? sql`` : sql`HAVING ${sql.and(groupFilters)}`
        const rows = yield* sql<Record<string, unknown>>`SELECT ${list(columns.flatMap((c) => c.outputs))}
          FROM (${inner}) g ${groupBy} ${having}
          ORDER BY ${list(orderBy)}
          LIMIT ${query.limit}`
        return rows.map((row) => columns.map((column) => column.read(row)))
      }).pipe(Effect.orDie)

    const segments = (siteId: string, paths: ReadonlyArray<ReadonlyArray<string>>, since: Date) =>
      Effect.gen(function*() {
        // A JSON string, number or boolean; anything else (absent, null, an object, an array) is null.
        const values = paths.map((path) => {
          const { value, walkable } = claimAt(path)
          return sql`CASE WHEN ${walkable} AND json_typeof(${value}) IN ('string', 'number', 'boolean') THEN ${value}::jsonb END`
        })
        const rows = yield* sql<{ readonly claims: ReadonlyArray<QueryValue>; events: number; visitors: number; sessions: number }>`
          SELECT jsonb_build_array(${list(values)}) AS claims, count(*)::int AS events,
            count(DISTINCT e.visitor_id)::int AS visitors, count(DISTINCT e.session_id)::int AS sessions
          FROM insight_events e
          WHERE e.site_id = ${siteId} AND e."timestamp" >= ${since.getTime()}
          GROUP BY 1`
        return rows.map((row): SegmentCount => ({
          values: row.claims,
          events: row.events,
          visitors: row.visitors,
          sessions: row.sessions
        }))
      }).pipe(Effect.orDie)

    return InsightsRepository.of({
      append: (events) =>
        Effect.gen(function*() {
          if (events.length === 0) return
          const months = [...new Set(events.map((event) => monthStartOf(event.timestamp.getTime())))]
          const insert = sql`INSERT INTO insight_events
            SELECT * FROM json_populate_recordset(NULL::insight_events, ${rowsJson(events)}::json)
            ON CONFLICT DO NOTHING`
          yield* ensurePartitions(months)
          // A month this server thought existed may have been purged by another one: create it again, once.
          yield* insert.pipe(Effect.catchIf(noPartition, () => Effect.zipRight(createPartitions(months), insert)))
        }).pipe(Effect.orDie),
      aggregate,
      segments,
      purgeBefore: (cutoff) =>
        Effect.gen(function*() {
          const partitions = yield* sql<{ readonly name: string }>`SELECT c.relname AS name
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'insight_events'::regclass`
          const dropped: Array<number> = []
          for (const { name } of partitions) {
            const month = monthOfPartition(name)
            if (month === undefined || partitionOf(month).to > cutoff.getTime()) continue
            yield* sql.unsafe(`DROP TABLE IF EXISTS ${name}`)
            dropped.push(month)
          }
          yield* Ref.update(knownMonths, (known) => new Set([...known].filter((month) => !dropped.includes(month))))
          // The month that holds the cutoff keeps its partition, less the events before it.
          yield* sql`DELETE FROM insight_events WHERE "timestamp" < ${cutoff.getTime()}`
        }).pipe(Effect.orDie)
    })
  })
)
