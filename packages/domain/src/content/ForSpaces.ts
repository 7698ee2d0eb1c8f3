import { Effect, Layer } from "effect"
import type { SpaceId } from "../shared/Ids.js"
import type { SpaceFact } from "../spaces/Facts.js"
import { SpaceContentLifecycle } from "../spaces/Ports.js"
import { emptyContent } from "./Page.js"
import { type ChangeRequestCounts, ChangeRequestRepository, ContentIndexer, RevisionContentRepository } from "./Ports.js"

/** A space's change requests counted, on views of spaces (those without any count none). */
export const ChangeRequestCountsFact: SpaceFact<
  ReadonlyMap<SpaceId, ChangeRequestCounts>,
  ChangeRequestCounts,
  ChangeRequestRepository
> = {
  key: "change_requests",
  read: Effect.map(ChangeRequestRepository, (changeRequests) => changeRequests.countsFor),
  show: Effect.succeed((counts) => Effect.succeed(counts))
}

/** What a space's coming and going does to its content and to the index that follows it. */
export const ContentLifecycle = Layer.effect(
  SpaceContentLifecycle,
  Effect.gen(function*() {
    const contents = yield* RevisionContentRepository
    const indexer = yield* ContentIndexer
    return SpaceContentLifecycle.of({
      created: (spaceId, revisionId) => indexer.whole(spaceId, revisionId, emptyContent),
      duplicated: (original, copyId, revisionId) =>
        Effect.gen(function*() {
          // The copy's first revision holds what the original's holds: stored as an empty delta on it.
          yield* contents.save(revisionId, copyId, original.revisionId, { pages: [], deletedPages: [], files: [], deletedFiles: [] })
          yield* indexer.whole(copyId, revisionId, yield* contents.load(original.revisionId))
        }),
      purged: (spaceId) => indexer.remove(spaceId)
    })
  })
)
