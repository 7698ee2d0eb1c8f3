import type { Migration } from "../shared/Migrations.js"
import { migration as insights } from "./migrations/0012_insights.js"

export const insightsMigrations: ReadonlyArray<Migration> = [insights]
