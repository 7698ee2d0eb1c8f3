import { evaluateQuery, evaluateSegments, InsightsRepository } from "@octavo/domain"
import { Effect, HashMap, Option } from "effect"
import { change, layerOver, pairKey } from "../shared/index.js"
import { InsightsState } from "./State.js"

/** Events in memory: queries scan them with the domain's reference evaluation, which SQL must match. */
export const MemoryInsightsRepository = layerOver(InsightsRepository, InsightsState, ({ events }, store) => ({
  append: (batch) =>
    change(store, InsightsState, (state) => {
      let { dedup, events } = state
      for (const event of batch) {
        if (event.dedupKey !== null) {
          const key = pairKey(event.siteId, event.dedupKey)
          if (HashMap.has(dedup, key)) continue
          dedup = HashMap.set(dedup, key, event.id)
        }
        events = HashMap.set(events, event.id, event)
      }
      return { dedup, events }
    }),
  aggregate: (query) => Effect.map(events.filter((e) => e.siteId === query.siteId), (held) => evaluateQuery(held, query)),
  segments: (siteId, paths, since) =>
    Effect.map(events.filter((e) => e.siteId === siteId), (held) => evaluateSegments(held, siteId, paths, since)),
  purgeBefore: (cutoff) =>
    change(store, InsightsState, (state) => {
      const old = (id: string) => Option.exists(HashMap.get(state.events, id), (e) => e.timestamp.getTime() < cutoff.getTime())
      return {
        events: HashMap.filter(state.events, (e) => e.timestamp.getTime() >= cutoff.getTime()),
        dedup: HashMap.filter(state.dedup, (id) => !old(id))
      }
    })
}))
