import type * as SqlClient from "@effect/sql/SqlClient"
import type { SearchPorts } from "@octavo/domain"
import type { Layer } from "effect"
import { SearchIndexLive } from "./SearchIndex.js"
import { searchMigrations } from "./migrations.js"
import { pgContext } from "../shared/Context.js"

/** The search context's storage: the documents of each space's active revision. */
export const PgSearch: Layer.Layer<SearchPorts, never, SqlClient.SqlClient> = SearchIndexLive

export { searchMigrations } from "./migrations.js"
export { SearchIndexLive } from "./SearchIndex.js"

/** The search context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgSearchContext = pgContext({
  storage: PgSearch,
  migrations: searchMigrations
})
