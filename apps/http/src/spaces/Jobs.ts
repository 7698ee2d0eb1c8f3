import { SpaceLifecycle } from "@octavo/domain"
import { Duration, Effect, Layer, Schedule } from "effect"

/**
 * Space lifecycle: spaces soft-deleted more than 7 days ago are removed for good, at start and
 * then hourly. Removal is idempotent, so several servers may run it at once.
 */
export const PurgeExpiredSpaces = Layer.scopedDiscard(
  Effect.flatMap(SpaceLifecycle, (lifecycle) =>
    lifecycle.purgeExpired.pipe(
      Effect.tap((purged) => purged > 0 ? Effect.logInfo("Purged expired spaces").pipe(Effect.annotateLogs({ purged })) : Effect.void),
      Effect.catchAllCause((cause) => Effect.logError("Purging expired spaces failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.hours(1))),
      Effect.forkScoped
    ))
)
