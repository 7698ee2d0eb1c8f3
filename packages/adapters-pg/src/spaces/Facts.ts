import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { type FactRows, type SpaceFactReading, SpaceFactRows, SpaceId } from "@octavo/domain"
import { Context, Effect, Layer, ParseResult, Schema } from "effect"
import { single } from "../shared/Rows.js"
import type { PgSpaceFact } from "../shared/Context.js"
import type { Ids } from "../shared/Sql.js"

// What later contexts show on views of spaces, read in one statement: each context contributes the column of its
// `SpaceFact` from its own folder (its SQL over its own tables, as one JSON value for the spaces `ids`); the
// composition root lists them and this reads them all at once.

/** The column of `fact`: `column` selects one JSON value that `rows` decodes into the fact's rows. */
export const pgSpaceFact = <Rows, I>(
  fact: SpaceFactReading<Rows>,
  column: (sql: SqlClient.SqlClient, ids: Ids) => Fragment,
  rows: Schema.Schema<Rows, I>
): PgSpaceFact => ({ key: fact.key, column, rows: rows as Schema.Schema<unknown, unknown> })

/** Rows decoded by `row`, then gathered as the domain holds them (a Map by space, say): a fact's rows. Read only. */
export const gathered = <R, I, Rows>(
  row: Schema.Schema<R, I>,
  gather: (rows: ReadonlyArray<R>) => Rows
): Schema.Schema<Rows, ReadonlyArray<I>> =>
  Schema.transformOrFail(Schema.Array(row), Schema.Any as Schema.Schema<Rows>, {
    strict: true,
    decode: (rows) => ParseResult.succeed(gather(rows)),
    encode: (rows, _, ast) => ParseResult.fail(new ParseResult.Forbidden(ast, rows, "a fact's rows are only read"))
  })

/** The rows `rows` names (an alias, with an ORDER BY if wanted) as a JSON array, `[]` for none. */
export const jsonArray = (sql: SqlClient.SqlClient, rows: string) => sql.literal(`coalesce(json_agg(${rows}), '[]')`)

/** Every contributed fact's column, for statements that read them with other rows (a site's tree, say). */
export class PgSpaceFacts extends Context.Tag("@octavo/adapters-pg/PgSpaceFacts")<PgSpaceFacts, {
  /** One column per fact, named by its key, for the spaces `ids`. */
  readonly columns: (sql: SqlClient.SqlClient, ids: Ids) => Fragment
  /** Decodes the columns `columns` selected into each fact's rows, by key. */
  readonly rows: Schema.Schema<FactRows, unknown>
}>() {}

const columnsOf = (facts: ReadonlyArray<PgSpaceFact>) => (sql: SqlClient.SqlClient, ids: Ids): Fragment =>
  facts.length === 0
    ? sql`NULL AS none`
    : sql.csv(facts.map((fact) => sql`${fact.column(sql, ids)} AS ${sql(fact.key)}`))

const rowsOf = (facts: ReadonlyArray<PgSpaceFact>): Schema.Schema<FactRows, unknown> =>
  Schema.transform(
    Schema.Struct(Object.fromEntries(facts.map((fact) => [fact.key, fact.rows]))) as Schema.Schema<Record<string, unknown>, unknown>,
    Schema.Unknown as Schema.Schema<FactRows>,
    { strict: true, decode: (row) => new Map(Object.entries(row)), encode: (rows) => Object.fromEntries(rows) }
  )

/**
 * `SpaceFactRows` and `PgSpaceFacts` over the columns of `facts`: a view of spaces costs its access read and one
 * statement more (issue 19: two round trips for one object, three for a list with its count), whatever is contributed.
 */
export const pgSpaceFactRows = (
  facts: ReadonlyArray<PgSpaceFact>
): Layer.Layer<SpaceFactRows | PgSpaceFacts, never, SqlClient.SqlClient> => {
  const columns = columnsOf(facts)
  const rows = rowsOf(facts)
  const described = Layer.succeed(PgSpaceFacts, PgSpaceFacts.of({ columns, rows }))
  const read = Layer.effect(
    SpaceFactRows,
    Effect.map(SqlClient.SqlClient, (sql) => {
      const of = single(Schema.Array(SpaceId), rows, (ids) => sql`SELECT ${columns(sql, ids)}`)
      return SpaceFactRows.of({ of })
    })
  )
  return Layer.merge(described, read)
}
