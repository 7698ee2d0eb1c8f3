import type * as SqlClient from "@effect/sql/SqlClient"
import type { SearchPorts } from "@octavo/domain"
import type { Layer } from "effect"
import { SearchIndexLive } from "./SearchIndex.js"

/** The search context's storage: the documents of each space's active revision. */
export const PgSearch: Layer.Layer<SearchPorts, never, SqlClient.SqlClient> = SearchIndexLive

export { searchMigrations } from "./migrations.js"
export { migration as searchPageContextMigration } from "./migrations/0008_search_page_context.js"
export { SearchIndexLive } from "./SearchIndex.js"
