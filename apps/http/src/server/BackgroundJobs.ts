import { GitSync, Identity, Insights, OpenAPISpecs, Search, Spaces } from "@octavo/domain"
import { Clock, Duration, Effect, Layer, Schedule } from "effect"

/** With OCTAVO_ADMIN_TOKEN set, the instance administrator is made (or found) at start and authenticates with it. */
export const bootstrapAdmin = (adminToken: string | undefined) =>
  Layer.effectDiscard(
    adminToken === undefined || adminToken === ""
      ? Effect.void
      : Effect.flatMap(Identity, (identity) => identity.bootstrapInstanceAdmin(adminToken)).pipe(
        Effect.tap((admin) => Effect.logInfo("Instance administrator ready").pipe(Effect.annotateLogs({ userId: admin.id })))
      )
  )

/**
 * Space lifecycle: spaces soft-deleted more than 7 days ago are removed for good, at start and
 * then hourly. Removal is idempotent, so several servers may run it at once.
 */
export const PurgeExpiredSpaces = Layer.scopedDiscard(
  Effect.flatMap(Spaces, (content) =>
    content.purgeExpired.pipe(
      Effect.tap((purged) => purged > 0 ? Effect.logInfo("Purged expired spaces").pipe(Effect.annotateLogs({ purged })) : Effect.void),
      Effect.catchAllCause((cause) => Effect.logError("Purging expired spaces failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.hours(1))),
      Effect.forkScoped
    ))
)

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

/** Git Sync (conventions-2.md §8): operations running when the server stopped lost their credentials; at start they fail. */
export const RecoverGitSync = Layer.effectDiscard(
  Effect.flatMap(GitSync, (gitSync) => gitSync.recover).pipe(
    Effect.catchAllCause((cause) => Effect.logError("Recovering Git Sync operations failed", cause))
  )
)

/** How many URL specs one server fetches and processes at once. */
const OPENAPI_WORKERS = 4

/**
 * OpenAPI specs from a URL (conventions-2.md §5): workers take the jobs (several servers share them,
 * each job taken once), when a URL is submitted on this server and otherwise every second.
 */
export const ProcessOpenAPISpecs = Layer.scopedDiscard(
  Effect.flatMap(OpenAPISpecs, (specs) => {
    // The pause is wall-clock time: a test clock moved by days would otherwise run a poll for every second of them.
    const pause = Effect.sleep(Duration.seconds(1)).pipe(Effect.withClock(Clock.make()))
    return Effect.forEach(Array.from({ length: OPENAPI_WORKERS }), () =>
      specs.processPending.pipe(
        Effect.catchAllCause((cause) => Effect.logError("Processing OpenAPI specs failed", cause)),
        Effect.zipRight(Effect.race(specs.submitted, pause)),
        Effect.forever,
        Effect.forkScoped
      ), { discard: true })
  })
)

/**
 * Search follows each space's active revision; at start, spaces whose documents lag behind (content
 * from before search existed) are reindexed in the background.
 */
export const ReindexStaleSpaces = Layer.scopedDiscard(
  Effect.flatMap(Search, (search) =>
    search.reindexStale.pipe(
      Effect.tap((reindexed) =>
        reindexed > 0 ? Effect.logInfo("Reindexed spaces for search").pipe(Effect.annotateLogs({ reindexed })) : Effect.void
      ),
      Effect.catchAllCause((cause) => Effect.logError("Reindexing spaces for search failed", cause)),
      Effect.forkScoped
    ))
)
