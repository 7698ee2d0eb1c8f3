import { Insights } from "@octavo/domain"
import { Duration, Effect, Layer, Schedule } from "effect"

/**
 * Insights retention: events older than 400 days are removed at start and then daily (whole
 * monthly partitions dropped on PostgreSQL). Removal is idempotent, so several servers may run it.
 */
export const PurgeExpiredEvents = Layer.scopedDiscard(
  Effect.flatMap(Insights, (insights) =>
    insights.purgeExpired.pipe(
      Effect.catchAllCause((cause) => Effect.logError("Purging expired insights events failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.days(1))),
      Effect.forkScoped
    ))
)
