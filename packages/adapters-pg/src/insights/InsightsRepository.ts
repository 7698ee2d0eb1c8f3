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
import { snakeCase as columnOf } from "../shared/Rows.js"
import { addToRollup, eventCounts, HOUR_MS as HOUR, rolledUp, rollupCounts, rollupFields, rollupSourceColumns } from "./Rollup.js"

// Site insights (conventions-2.md §2) over `insight_events`, partitioned by month, and its hourly
// rollup (Rollup.ts): an aggregate query compiles into one statement whose answer is `evaluateQuery`'s
// (the domain's reference), whichever of the two it reads.

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

/** A rollup row as `insight_events`' columns of the same names read. */
const rollupRelationColumns = [
  "r.site_id",
  `r."timestamp"`,
  ...rollupFields.map((field) => `r.${columnOf(field)}`),
  ...rollupCounts.map((column) => `r.${column}`)
].join(", ")

/** Each field of a stored event and its column; the dedup key is stored as the id (migration 21). */
const eventColumns = Object.keys(StoredEvent.fields).flatMap((field) =>
  field === "id" || field === "dedupKey" ? [] : [[field, columnOf(field)] as const]
)

/**
 * A batch as the JSON text of its rows, which `json_populate_recordset` reads in one parameter: the
 * row type's columns by name (none for NULL), the timestamp in epoch milliseconds, the claims as their
 * JSON (a json column keeps the text it is given). Cheaper, for both the process and the server, than one
 * parameter per column of every row. An event with a dedup key is stored under it, so that the primary
 * key refuses it a second time.
 */
const rowsJson = (events: ReadonlyArray<StoredEvent>): string =>
  JSON.stringify(events.map((event) => {
    const row: Record<string, unknown> = { id: event.dedupKey ?? event.id }
    for (const [field, column] of eventColumns) {
      const value = event[field as keyof StoredEvent]
      // A column the row leaves out is NULL: most of an event's columns are its type's others.
      if (value !== null) row[column] = value instanceof Date ? value.getTime() : value
    }
    return row
  }))

/** The rollup statement of every append: of the events its insert returned. */
const addInsertedToRollup = addToRollup("inserted")

/** The event's day, counted from 1970-01-01 (UTC). */
const DAY_NUMBER = `(e."timestamp" / ${HOUR * 24})`

type CountMetric = "eventsCount" | "sessionsCount" | "visitorsCount"
type DistinctMetric = "sessionsCount" | "visitorsCount"

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

export interface InsightsStorageOptions {
  /**
   * After this many events stored by this server, the rollup and the partitions of the months they
   * went to are analyzed (in the background), so that the planner knows their size: PGlite has no
   * autovacuum, and a server's runs every minute at best. Without statistics PostgreSQL takes a
   * million rollup rows for a hundred and sorts visitors it should hash, several times slower.
   */
  readonly analyzeEvery: number
}

export const makeInsightsRepository = (options: InsightsStorageOptions) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const list = sql.join(", ", false)
    /** The months whose partitions this server has seen exist. */
    const knownMonths = yield* Ref.make<ReadonlySet<number>>(new Set())
    /** The events stored since the last analysis, and the months they went to. */
    const unanalyzed = yield* Ref.make<{ readonly events: number; readonly months: ReadonlySet<number> }>({
      events: 0,
      months: new Set()
    })
    const analyzing = yield* Effect.makeSemaphore(1)

    /** Analyzes the rollup and the months' partitions, unless an analysis is under way; a month purged since is skipped. */
    const analyze = (months: ReadonlySet<number>) =>
      analyzing.withPermitsIfAvailable(1)(Effect.gen(function*() {
        yield* sql`ANALYZE insight_rollup`
        for (const month of months) {
          // The name is made of numbers only.
          yield* sql.unsafe(`ANALYZE ${partitionOf(month).name}`).pipe(Effect.ignore)
        }
      })).pipe(Effect.ignore)

    /** Counts a batch towards the next analysis, and starts it when due. */
    const countTowardsAnalysis = (events: number, months: ReadonlyArray<number>) =>
      Effect.flatMap(
        Ref.modify(unanalyzed, (state) => {
          const next = { events: state.events + events, months: new Set([...state.months, ...months]) }
          return next.events >= options.analyzeEvery ? [next.months, { events: 0, months: new Set<number>() }] : [undefined, next]
        }),
        (due) => due === undefined ? Effect.void : Effect.asVoid(Effect.forkDaemon(analyze(due)))
      )

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
     * Runs an aggregate's statement with the settings it is planned under, set for its transaction only
     * (one round trip): room to group a site's visitors in memory, where the default 4 MB spills them
     * to disk; and parallel plans priced as what they are for a scan of a million rows, so that the
     * server's other cores scan and group a share each. By the default prices PostgreSQL reads the
     * rollup alone, about a quarter slower at 10 million events (README, insights figures). PGlite
     * runs no parallel workers and plans as before.
     */
    const analytic = <A>(statement: Effect.Effect<A, SqlError>) =>
      sql.withTransaction(Effect.zipRight(
        sql`SELECT set_config('work_mem', '32MB', true), set_config('parallel_setup_cost', '100', true),
          set_config('parallel_tuple_cost', '0.01', true)`,
        statement
      ))

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
    const claimAt = (path: ReadonlyArray<string>): { readonly value: Fragment; readonly text: Fragment; readonly walkable: Fragment } => {
      const array = (names: ReadonlyArray<string>) => sql`ARRAY[${list(names.map((name) => sql`${name}::text`))}]::text[]`
      // #> takes a name of digits as an index into an array; the reference does not.
      const objects = path.flatMap((name, i) =>
        /\d/.test(name)
          ? [sql`json_typeof(${i === 0 ? sql`e.visitor_claims` : sql`e.visitor_claims #> ${array(path.slice(0, i))}`}) = 'object'`]
          : []
      )
      return {
        value: sql`(e.visitor_claims #> ${array(path)})`,
        text: sql`(e.visitor_claims #>> ${array(path)})`,
        walkable: objects.length === 0 ? sql`TRUE` : sql.and(objects)
      }
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
          const { text, walkable } = claimAt(column.claim.split("."))
          // Strings as they are, numbers, booleans, objects and arrays as their JSON text, JSON null as
          // absent: what #>> answers, reading the claims once.
          return {
            expression: sql`(CASE WHEN ${walkable} THEN ${text} END) COLLATE "C"`,
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

    /**
     * A count metric over the rows of a group, each of which stands for `g.events` events (one, or a
     * rollup row's, or a sum of them). `distinctRows`: the metric whose rows are already one per
     * visitor (or session) of the group, which then counts them.
     */
    const count = (metric: CountMetric, distinctRows: DistinctMetric | undefined): Fragment =>
      sql.literal(
        metric === "eventsCount"
          ? "coalesce(sum(g.events), 0)"
          : metric === distinctRows
          ? "count(*)"
          : metric === "sessionsCount"
          ? "count(DISTINCT g.session_id)"
          : "count(DISTINCT g.visitor_id)"
      )

    /** A metric's output columns, by name, and the keys it sorts by (rating breakdowns: total, then counts). */
    const metricOutputs = (metric: MetricColumnName, distinctRows: DistinctMetric | undefined): {
      readonly parts: ReadonlyArray<readonly [name: string, aggregate: Fragment]>
      readonly sortKeys: ReadonlyArray<Fragment>
    } => {
      const total = (columns: ReadonlyArray<string>) => sql.literal(`coalesce(sum(${columns.map((c) => `g.${c}`).join(" + ")}), 0)`)
      switch (metric) {
        case "eventsCount":
        case "sessionsCount":
        case "visitorsCount":
          return { parts: [["count", count(metric, distinctRows)]], sortKeys: [count(metric, distinctRows)] }
        case "pageFeedbackRating": {
          const parts = (["ok", "good", "bad"] as const).map((rating) => [rating, total([`page_feedback_${rating}`])] as const)
          return { parts, sortKeys: [total(["page_feedback_ok", "page_feedback_good", "page_feedback_bad"]), ...parts.map(([, a]) => a)] }
        }
        case "askResponseRating": {
          const parts = [["positive", total(["ask_positive"])], ["negative", total(["ask_negative"])]] as const
          return { parts, sortKeys: [total(["ask_positive", "ask_negative"]), ...parts.map(([, a]) => a)] }
        }
      }
    }

    /**
     * The rows an aggregate reads, as `e`: the site's events in [from, to), or its rollup rows of the
     * whole hours in [from, to) (their "timestamp" is the hour's start, their claims json as an
     * event's), each with the counts it stands for.
     */
    const source = (from: "events" | "rollup", siteId: string, range: readonly [number, number | undefined]): Fragment => {
      const relation = from === "events"
        ? sql`SELECT e.*, ${sql.literal(eventCounts)} FROM insight_events e`
        : sql`SELECT ${sql.literal(rollupRelationColumns)} FROM insight_rollup r`
      const [start, end] = range
      return sql`(${relation} WHERE ${
        sql.and([
          sql`site_id = ${siteId}`,
          sql`"timestamp" >= ${start}`,
          ...(end === undefined ? [] : [sql`"timestamp" < ${end}`])
        ])
      }) e`
    }

    /**
     * Where an aggregate over [from, to) reads: the rollup for the whole hours inside the range when
     * `rollup` allows, the events for the rest (the parts of hours at either end), or the events alone.
     */
    const sources = (
      siteId: string,
      from: number,
      to: number | undefined,
      rollup: boolean
    ): ReadonlyArray<Fragment> => {
      const first = Math.ceil(from / HOUR) * HOUR
      const last = to === undefined ? undefined : Math.floor(to / HOUR) * HOUR
      if (!rollup || (last !== undefined && first >= last)) return [source("events", siteId, [from, to])]
      return [
        ...(from < first ? [source("events", siteId, [from, first])] : []),
        source("rollup", siteId, [first, last]),
        ...(last !== undefined && to !== undefined && last < to ? [source("events", siteId, [last, to])] : [])
      ]
    }

    /** Whether the rollup keeps what the column reads (a time down to the hour, or a field it keeps). */
    const rollupReads = (column: QueryColumn): boolean =>
      column.kind === "field" ? rolledUp(column.column, fieldColumns[column.column]) : true

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
        // The metrics selected or filtered on.
        const metrics = new Set(
          [...query.select, ...query.where.map((filter) => filter.column)].flatMap((column) =>
            column.kind === "metric" ? [column.metric] : []
          )
        )
        // A filter on the time itself reads each event's; every other column the rollup may answer.
        const rollup = query.groupBy.every(rollupReads) &&
          query.where.every((filter) => filter.column.kind !== "datetime" && rollupReads(filter.column))
        // Visitors or sessions alone are counted by grouping the rows by visitor (or session) first, a
        // hash aggregation, rather than by count(DISTINCT …), which sorts each group. Only over the
        // rollup, where a visitor has many rows: over events grouped by page, nearly every row is a
        // visitor of its own, and sorting them is the cheaper.
        const distinctMetrics = [...metrics].filter((metric): metric is DistinctMetric =>
          metric === "visitorsCount" || metric === "sessionsCount"
        )
        const [distinctRows] = rollup && distinctMetrics.length === 1 ? distinctMetrics : []
        // The counts the metrics add up: the rows carry those only.
        const counted = rollupCounts.filter((count) =>
          count === "events"
            ? metrics.has("eventsCount")
            : metrics.has(count.startsWith("ask") ? "askResponseRating" : "pageFeedbackRating")
        )
        const groupFilters = query.where.flatMap((filter) => {
          const column = filter.column
          if (column.kind !== "metric") return []
          const metric = column.metric
          return metric === "eventsCount" || metric === "sessionsCount" || metric === "visitorsCount"
            ? [condition(count(metric, distinctRows), "number", filter)]
            : [condition(sql`NULL`, "breakdown", filter)]
        })

        const columns = query.select.map((column, i) => {
          if (column.kind === "metric") {
            const { parts, sortKeys } = metricOutputs(column.metric, distinctRows)
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

        const picked = list([
          ...grouped.flatMap((d) => d.parts.map((part) => sql`${part.expression} AS ${sql.literal(part.alias)}`)),
          sql.literal(["e.visitor_id", "e.session_id", ...counted.map((c) => `e.${c}`)].join(", "))
        ])
        const inner = sql.join(" UNION ALL ", false)(
          sources(query.siteId, query.range.from.getTime(), query.range.to.getTime(), rollup).map((from) =>
            sql`SELECT ${picked} FROM ${from}${eventFilters.length === 0 ? sql`` : sql` WHERE ${sql.and(eventFilters)}`}`
          )
        )
        const aliases = grouped.flatMap((d) => d.parts.map((part) => part.alias))
        const rowsOf = distinctRows === undefined ? inner : (() => {
          const key = distinctRows === "visitorsCount" ? "visitor_id" : "session_id"
          const by = [...aliases.map((alias) => `u.${alias}`), `u.${key}`].join(", ")
          return sql`SELECT ${sql.literal([by, ...counted.map((c) => `sum(u.${c}) AS ${c}`)].join(", "))}
            FROM (${inner}) u GROUP BY ${sql.literal(by)}`
        })()
        // Without groupBy there is one group, even an empty one: an aggregate with no GROUP BY.
        const groupBy = aliases.length === 0 ? sql`` : sql`GROUP BY ${sql.literal(aliases.map((alias) => `g.${alias}`).join(", "))}`
        const having = groupFilters.length === 0 ? sql`` : sql`HAVING ${sql.and(groupFilters)}`
        const rows = yield* analytic(
          sql<Record<string, unknown>>`SELECT ${list(columns.flatMap((c) => c.outputs))}
            FROM (${rowsOf}) g ${groupBy} ${having}
            ORDER BY ${list(orderBy)}
            LIMIT ${query.limit}`
        )
        return rows.map((row) => columns.map((column) => column.read(row)))
      }).pipe(Effect.orDie)

    const segments = (siteId: string, paths: ReadonlyArray<ReadonlyArray<string>>, since: Date) =>
      Effect.gen(function*() {
        // A JSON string, number or boolean; anything else (absent, null, an object, an array) is null.
        const values = paths.map((path) => {
          const { value, walkable } = claimAt(path)
          return sql`CASE WHEN ${walkable} AND json_typeof(${value}) IN ('string', 'number', 'boolean') THEN ${value}::jsonb END`
        })
        const inner = sql.join(" UNION ALL ", false)(
          sources(siteId, since.getTime(), undefined, true).map((from) =>
            sql`SELECT ${list(values.map((value, i) => sql`${value} AS ${sql.literal(`c${i}`)}`))}${
              sql.literal(`${values.length === 0 ? "" : ", "}e.visitor_id, e.session_id, e.events`)
            } FROM ${from}`
          )
        )
        const claims = values.map((_, i) => `g.c${i}`)
        const rows = yield* analytic(
          sql<{ readonly claims: ReadonlyArray<QueryValue>; events: number; visitors: number; sessions: number }>`
          SELECT jsonb_build_array(${sql.literal(claims.join(", "))}) AS claims, sum(g.events)::int AS events,
            count(DISTINCT g.visitor_id)::int AS visitors, count(DISTINCT g.session_id)::int AS sessions
          FROM (${inner}) g
          GROUP BY 1`
        )
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
          // The events its site has not stored yet, and in the same statement their counts in the rollup.
          const insert = sql`WITH inserted AS (
              INSERT INTO insight_events
              SELECT * FROM json_populate_recordset(NULL::insight_events, ${rowsJson(events)}::json)
              ON CONFLICT DO NOTHING
              RETURNING ${sql.literal(rollupSourceColumns)}
            )
            ${sql.literal(addInsertedToRollup)}`
          yield* ensurePartitions(months)
          // A month this server thought existed may have been purged by another one: create it again, once.
          yield* insert.pipe(Effect.catchIf(noPartition, () => Effect.zipRight(createPartitions(months), insert)))
          yield* countTowardsAnalysis(events.length, months)
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
          // The rollup loses the hours before the cutoff's, and the cutoff's hour is counted again from the
          // events left in it. Appends wait meanwhile (they take ROW EXCLUSIVE), so that none is counted
          // twice; none of them can be as old as the cutoff.
          const hour = cutoff.getTime() - cutoff.getTime() % HOUR
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`LOCK TABLE insight_rollup IN SHARE ROW EXCLUSIVE MODE`
            yield* sql`DELETE FROM insight_rollup WHERE "timestamp" <= ${hour}`
            yield* sql.unsafe(
              addToRollup(`(SELECT * FROM insight_events WHERE "timestamp" >= ${hour} AND "timestamp" < ${hour + HOUR}) AS cutoff_hour`)
            )
          }))
        }).pipe(Effect.orDie)
    })
  })

export const insightsRepositoryLayer = (options: InsightsStorageOptions) =>
  Layer.effect(InsightsRepository, makeInsightsRepository(options))

export const InsightsRepositoryLive = insightsRepositoryLayer({ analyzeEvery: 100_000 })
