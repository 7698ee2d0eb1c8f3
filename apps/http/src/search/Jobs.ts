import { Search } from "@octavo/domain"
import { Effect, Layer } from "effect"

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
