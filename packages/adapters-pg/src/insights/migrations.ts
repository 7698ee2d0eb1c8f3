import type { Migration } from "../shared/Migrations.js"
import { migration as insights } from "./migrations/0012_insights.js"
import { migration as rollup } from "./migrations/0019_insight_rollup.js"
import { migration as eventKeys } from "./migrations/0021_insight_event_keys.js"

export const insightsMigrations: ReadonlyArray<Migration> = [insights, rollup, eventKeys]
