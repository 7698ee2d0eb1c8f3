import type * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import type { Layer, Schema } from "effect"
import type { Migration } from "./Migrations.js"
import type { Ids } from "./Sql.js"

/** A context's column of a space fact (spaces/Facts.ts): its rows for the spaces `ids` as one JSON value, and how they decode. */
export interface PgSpaceFact {
  readonly key: string
  readonly column: (sql: SqlClient.SqlClient, ids: Ids) => Fragment
  readonly rows: Schema.Schema<unknown, unknown>
}

/**
 * What a context gives the PostgreSQL storage, the one thing its folder exports for the composition: its ports (and the
 * reads it answers), its migrations (applied in the order of their ids, whichever context holds them) and the columns
 * of what it shows on views of spaces.
 */
/** A context's storage: what it provides, over a SqlClient and what the composition gives every context. */
type AnyStorage = Layer.Layer<never, never, unknown>

export interface PgContext<L extends AnyStorage> {
  readonly storage: L
  readonly migrations: ReadonlyArray<Migration>
  readonly spaceFacts: ReadonlyArray<PgSpaceFact>
}

/** A context's part of the storage, with nothing it does not give. */
export const pgContext = <L extends AnyStorage>(
  context: { readonly storage: L } & Partial<Omit<PgContext<L>, "storage">>
): PgContext<L> => ({ migrations: [], spaceFacts: [], ...context })
