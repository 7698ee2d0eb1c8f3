import { OctavoBase } from "../shared/Contract.js"
import { InsightsApi } from "./InsightsApi.js"
import { InsightsLive } from "./InsightsHandlers.js"
import { PurgeExpiredEvents } from "./Jobs.js"

/** Site insights over HTTP: tracking, aggregate queries, visitor segments. */
export const InsightsGroups = OctavoBase.add(InsightsApi)
export const InsightsHandlers = InsightsLive

/** The insights context's part of the HTTP API (the list in ../Contexts.ts). */
export const InsightsHttp = {
  groups: InsightsGroups,
  handlers: InsightsHandlers,
  jobs: [PurgeExpiredEvents]
}
