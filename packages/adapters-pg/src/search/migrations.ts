import type { Migration } from "../shared/Migrations.js"
import { migration as search } from "./migrations/0005_search.js"
import { migration as searchSpaces } from "./migrations/0006_search_spaces.js"

export const searchMigrations: ReadonlyArray<Migration> = [search, searchSpaces]
