import type { Migration } from "../shared/Migrations.js"
import { migration as gitsync } from "./migrations/0018_gitsync.js"

export const gitsyncMigrations: ReadonlyArray<Migration> = [gitsync]
