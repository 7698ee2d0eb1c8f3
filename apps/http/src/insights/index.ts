import { type BodyLimit, OctavoBase } from "../shared/Contract.js"
import { InsightsApi } from "./InsightsApi.js"
import { InsightsLive } from "./InsightsHandlers.js"
import { PurgeExpiredEvents } from "./Jobs.js"

/** Site insights over HTTP: tracking, aggregate queries, visitor segments. */
export const InsightsGroups = OctavoBase.add(InsightsApi)
export const InsightsHandlers = InsightsLive

/** A batch of tracked events is at most 1 MiB (conventions-2.md §2, 413 beyond), refused before it is read whole. */
export const MAX_TRACKING_BODY_BYTES = 1024 * 1024

const trackingBodies: ReadonlyArray<BodyLimit> = [
  { method: "POST", path: /^\/v1\/orgs\/[^/?]+\/sites\/[^/?]+\/insights\/events$/, maxBytes: MAX_TRACKING_BODY_BYTES }
]

/** The insights context's part of the HTTP API (the list in ../Contexts.ts). */
export const InsightsHttp = {
  groups: InsightsGroups,
  handlers: InsightsHandlers,
  bodyLimits: trackingBodies,
  jobs: [PurgeExpiredEvents]
}
