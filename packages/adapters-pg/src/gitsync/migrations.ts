import type { Migration } from "../shared/Migrations.js"
import { migration as gitsync } from "./migrations/0018_gitsync.js"
import { migration as sites } from "./migrations/0024_gitsync_sites.js"

export const gitsyncMigrations: ReadonlyArray<Migration> = [gitsync, sites]
