import type { Migration } from "../shared/Migrations.js"
import { migration as search } from "./migrations/0005_search.js"
import { migration as searchSpaces } from "./migrations/0006_search_spaces.js"
import { migration as pageContext } from "./migrations/0008_search_page_context.js"

export const searchMigrations: ReadonlyArray<Migration> = [search, searchSpaces, pageContext]
