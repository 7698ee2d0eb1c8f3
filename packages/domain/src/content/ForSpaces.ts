import { Effect, Layer } from "effect"
import type { SpaceId } from "../shared/Ids.js"
import { SpaceContentLifecycle, type SpaceCounts } from "../spaces/Ports.js"
import { emptyContent } from "./Page.js"
import { type ChangeRequestCounts, ContentIndexer, RevisionContentRepository } from "./Ports.js"

/** The spaces context's counters of change requests, from the counts the content's storage keeps. */
export const spaceCountsOf = (counts: ReadonlyMap<SpaceId, ChangeRequestCounts>): Map<SpaceId, Partial<SpaceCounts>> => {
  const answered = new Map<SpaceId, Partial<SpaceCounts>>()
  for (const [id, c] of counts) answered.set(id, { changeRequests: c.total, changeRequestsOpen: c.open, changeRequestsDraft: c.draft })
  return answered
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
