import type { Migration } from "../shared/Migrations.js"
import { migration as sites } from "./migrations/0011_sites.js"
import { migration as schemaOrder } from "./migrations/0013_sites_schema_order.js"

export const sitesMigrations: ReadonlyArray<Migration> = [sites, schemaOrder]
