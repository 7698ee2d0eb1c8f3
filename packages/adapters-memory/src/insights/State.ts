import type { StoredEvent } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the insights context keeps in memory. */
export const InsightsState = slice("@octavo/adapters-memory/insights", {
  /** By event id. */
  events: HashMap.empty<string, StoredEvent>(),
  /** The ids of events stored with a client timestamp, by (site, dedup key). */
  dedup: HashMap.empty<string, string>()
})
