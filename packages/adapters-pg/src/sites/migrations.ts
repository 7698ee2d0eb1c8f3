import type { Migration } from "../shared/Migrations.js"
import { migration as sites } from "./migrations/0011_sites.js"
import { migration as schemaOrder } from "./migrations/0013_sites_schema_order.js"
import { migration as redirects } from "./migrations/0023_site_redirects.js"

export const sitesMigrations: ReadonlyArray<Migration> = [sites, schemaOrder, redirects]
