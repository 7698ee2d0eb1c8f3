import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import {
  type Conflict,
  type Keyset,
  type Order,
  type Page,
  type PageRequest
} from "@octavo/domain"
import { Effect, Option, Schema } from "effect"

/** The constraint a unique violation (SQLSTATE 23505) names, "" when unnamed; undefined for any other error. */
const uniqueViolation = (error: SqlError): string | undefined => {
  const cause: unknown = error.cause
  if (typeof cause !== "object" || cause === null || !("code" in cause) || cause.code !== "23505") return undefined
  return "constraint" in cause && typeof cause.constraint === "string" ? cause.constraint : ""
}

/**
 * Runs a write whose unique violations are Conflicts; any other SqlError is a defect.
 * Inside a transaction the write gets a savepoint, so a caller that handles the Conflict
 * can go on using the transaction (Postgres aborts a transaction on its first error).
 */
export const conflictOnUnique =
  (sql: SqlClient.SqlClient) =>
  <A>(write: Effect.Effect<A, SqlError>, conflict: (constraint: string) => Conflict): Effect.Effect<A, Conflict> =>
    Effect.serviceOption(SqlClient.TransactionConnection).pipe(
      Effect.flatMap((transaction) => Option.isSome(transaction) ? sql.withTransaction(write) : write),
      Effect.catchAll((error) => {
        const constraint = uniqueViolation(error)
        return constraint === undefined ? Effect.die(error) : Effect.fail(conflict(constraint))
      })
    )

/** The columns a list is ordered by: a sort value, then the id. */
export interface KeysetColumns {
  /** e.g. "m.joined_at" */
  readonly value: string
  readonly id: string
  /** The sort value is an order key (text COLLATE "C"), not epoch milliseconds. */
  readonly orderKey?: boolean
}

/**
 * The condition "comes after `after` in `order`" over the keyset columns (value, id), with the
 * semantics of `compareKeysets` from the domain. Ids and order keys compare with the columns'
 * "C" collation, which is JavaScript's order of (ASCII) strings.
 */
export const afterKeyset = (
  sql: SqlClient.SqlClient,
  columns: KeysetColumns,
  order: Order,
  after: Option.Option<Keyset>
): Fragment => {
  if (Option.isNone(after)) return sql.literal("TRUE")
  const [value, id] = after.value
  if (columns.orderKey === true) {
    // A number where an order key belongs: `<` between it and a key that is not numeric is false
    // both ways in JavaScript, so every item sorts after it (the cursors of order-key lists hold strings).
    if (typeof value === "number") return sql.literal(order === "asc" ? "TRUE" : "FALSE")
    const operator = sql.literal(order === "asc" ? ">" : "<")
    return sql`(${sql.literal(columns.value)}, ${sql.literal(columns.id)}) ${operator} (${value}::text, ${id}::text)`
  }
  const asNumber = typeof value === "number" ? value : Number(value)
  // JavaScript's `<` with NaN is false both ways: every item sorts after such a keyset.
  if (Number.isNaN(asNumber)) return sql.literal(order === "asc" ? "TRUE" : "FALSE")
  const bound = Number.isSafeInteger(asNumber) ? sql`${String(asNumber)}::bigint` : sql`${String(asNumber)}::numeric`
  const valueColumn = sql.literal(columns.value)
  // A string where a number belongs compares numerically in JavaScript and never equals it: no tie on the id.
  if (typeof value === "string") {
    return order === "asc" ? sql`${valueColumn} >= ${bound}` : sql`${valueColumn} < ${bound}`
  }
  const operator = sql.literal(order === "asc" ? ">" : "<")
  return sql`(${valueColumn}, ${sql.literal(columns.id)}) ${operator} (${bound}, ${id})`
}

export interface PageQuery<A, I = unknown> {
  /** The select list. */
  readonly select: Fragment
  /** FROM and JOINs. */
  readonly from: Fragment
  /** The list's filters; the count counts what they match. */
  readonly where: ReadonlyArray<Fragment>
  /** Keyset columns, e.g. "m.joined_at" and "m.user_id". */
  readonly keyset: KeysetColumns
  readonly order: Order
  readonly page: PageRequest
  /** How a row of the select list decodes into an item. */
  readonly row: Schema.Schema<A, I>
  readonly keysetOf: (item: A) => Keyset
}

/**
 * One page of a keyset-ordered list, as `pageInMemory` defines it: one row more than the limit
 * tells whether another page follows, and a count of every match. One statement answers both: the
 * count, and the page's rows as a JSON array (in the page's order), which the row decoders read as
 * they read a row (bigint as a number, json parsed).
 */
export const selectPage = <A, I>(sql: SqlClient.SqlClient, query: PageQuery<A, I>): Effect.Effect<Page<A>> => {
  const direction = sql.literal(query.order === "asc" ? "ASC" : "DESC")
  const rows = sql`SELECT ${query.select} ${query.from}
    WHERE ${sql.and([...query.where, afterKeyset(sql, query.keyset, query.order, query.page.after)])}
    ORDER BY ${sql.literal(query.keyset.value)} ${direction}, ${sql.literal(query.keyset.id)} ${direction}
    LIMIT ${query.page.limit + 1}`
  const statement = sql<{ readonly count: number; readonly rows: ReadonlyArray<unknown> }>`SELECT
    (SELECT count(*)::int ${query.from} WHERE ${sql.and(query.where)}) AS count,
    coalesce((SELECT json_agg(page) FROM (${rows}) page), '[]'::json) AS rows`
  return Effect.gen(function*() {
    const [answer] = yield* statement
    const found = answer?.rows ?? []
    const items = yield* Schema.decodeUnknown(Schema.Array(query.row))(found.slice(0, query.page.limit))
    const last = items[items.length - 1]
    return {
      items,
      count: answer?.count ?? 0,
      next: found.length > query.page.limit && last !== undefined ? Option.some(query.keysetOf(last)) : Option.none()
    }
  }).pipe(Effect.orDie)
}

/** The keyset of a list by creation: (created_at, id) of the table aliased `alias`, for items with `createdAt` and `id`. */
export const byCreation = (alias: string, order: Order = "asc") => ({
  keyset: { value: `${alias}.created_at`, id: `${alias}.id` },
  keysetOf: (item: { readonly createdAt: Date; readonly id: string }): Keyset => [item.createdAt.getTime(), item.id],
  order
})

/** A case-insensitive substring match, without LIKE's wildcards. */
export const containsIgnoringCase = (sql: SqlClient.SqlClient, column: string, search: string): Fragment =>
  sql`strpos(lower(${sql.literal(column)}), lower(${search}::text)) > 0`

/** Ids a statement matches: an array of them (one parameter), or a subquery that selects them. */
export type Ids = ReadonlyArray<string> | Fragment

/** `column` is one of `ids`. */
export const oneOf = (sql: SqlClient.SqlClient, column: string, ids: Ids): Fragment =>
  Array.isArray(ids) ? sql`${sql.literal(column)} = ANY(${ids}::text[])` : sql`${sql.literal(column)} IN (${ids as Fragment})`
