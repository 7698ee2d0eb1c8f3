import type { InsightsPorts } from "@octavo/domain"
import type { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemoryInsightsRepository } from "./Repositories.js"

export { InsightsState } from "./State.js"

/** The insights context's storage, in memory. */
export const MemoryInsights: Layer.Layer<InsightsPorts, never, MemoryStore> = MemoryInsightsRepository
