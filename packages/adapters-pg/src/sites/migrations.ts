import type { Migration } from "../shared/Migrations.js"
import { migration as sites } from "./migrations/0011_sites.js"
import { migration as schemaOrder } from "./migrations/0013_sites_schema_order.js"
import { migration as redirects } from "./migrations/0023_site_redirects.js"
import { migration as hidden } from "./migrations/0025_site_spaces_hidden.js"
import { migration as localized } from "./migrations/0027_site_localized_titles.js"

export const sitesMigrations: ReadonlyArray<Migration> = [sites, schemaOrder, redirects, hidden, localized]
