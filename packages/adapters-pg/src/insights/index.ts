import type * as SqlClient from "@effect/sql/SqlClient"
import type { InsightsPorts } from "@octavo/domain"
import type { Layer } from "effect"
import { InsightsRepositoryLive } from "./InsightsRepository.js"
import { insightsMigrations } from "./migrations.js"
import { pgContext } from "../shared/Context.js"

/** The insights context's storage: site events in monthly partitions, their aggregations and segments. */
export const PgInsights: Layer.Layer<InsightsPorts, never, SqlClient.SqlClient> = InsightsRepositoryLive

export {
  insightsRepositoryLayer,
  InsightsRepositoryLive,
  type InsightsStorageOptions,
  makeInsightsRepository
} from "./InsightsRepository.js"
export { insightsMigrations } from "./migrations.js"

/** The insights context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgInsightsContext = pgContext({
  storage: PgInsights,
  migrations: insightsMigrations
})
