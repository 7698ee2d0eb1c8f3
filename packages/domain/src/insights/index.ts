import { Insights } from "./InsightsService.js"

export * from "./Aggregate.js"
export * from "./Caches.js"
export * from "./Event.js"
export * from "./InsightsService.js"
export * from "./Ports.js"
export * from "./Query.js"
export * from "./Track.js"

/** The insights context's use cases: tracking, aggregate queries, visitor segments. */
export const InsightsServices = Insights.Default

/** The insights context's part of the domain (the list in ../Contexts.ts). */
export const InsightsContext = { services: InsightsServices }
