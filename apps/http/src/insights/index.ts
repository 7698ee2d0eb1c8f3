import { OctavoBase } from "../shared/Contract.js"
import { InsightsApi } from "./InsightsApi.js"
import { InsightsLive } from "./InsightsHandlers.js"

/** Site insights over HTTP: tracking, aggregate queries, visitor segments. */
export const InsightsGroups = OctavoBase.add(InsightsApi)
export const InsightsHandlers = InsightsLive
