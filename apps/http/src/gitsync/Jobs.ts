import { GitSyncOperations, SiteGitSync } from "@octavo/domain"
import { Effect, Layer } from "effect"

/** Git Sync (conventions-2.md §8): operations running when the server stopped lost their credentials; at start they fail. */
export const RecoverGitSync = Layer.effectDiscard(
  Effect.zipRight(
    Effect.flatMap(GitSyncOperations, (operations) => operations.recover),
    Effect.flatMap(SiteGitSync, (sites) => sites.recover)
  ).pipe(
    Effect.catchAllCause((cause) => Effect.logError("Recovering Git Sync operations failed", cause))
  )
)
