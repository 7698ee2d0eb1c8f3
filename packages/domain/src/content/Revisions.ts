import { Effect } from "effect"
import { RevisionId } from "../shared/Ids.js"
import { Secrets } from "../shared/Secrets.js"
import { RevisionRepository, SpaceRepository } from "../spaces/Ports.js"
import type { Revision, Space } from "../spaces/Space.js"
import type { Authorized } from "../spaces/SpaceAccess.js"
import type { ContentDelta, RevisionContent } from "./Page.js"
import { ContentIndexer, RevisionContentRepository } from "./Ports.js"
import { RevisionContents } from "./RevisionContents.js"

/**
 * Writing revisions, the one way every content change (live edits, change requests, merges,
 * imports) lands. Each write takes the proof that the actor may edit the space.
 */
export const makeRevisions = Effect.gen(function*() {
  const revisions = yield* RevisionRepository
  const contents = yield* RevisionContentRepository
  const kept = yield* RevisionContents
  const spaces = yield* SpaceRepository
  const indexer = yield* ContentIndexer
  const secrets = yield* Secrets

  /** A new revision of the proven space, stored as `delta` on `parentId`'s content. */
  const record = (
    proof: Authorized<"edit">,
    parents: ReadonlyArray<RevisionId>,
    type: Revision["type"],
    at: Date,
    stored: {
      readonly on: RevisionId
      readonly delta: ContentDelta
      /** What the revision holds, when the caller has it: kept in memory for the next read. */
      readonly content?: RevisionContent | undefined
    }
  ) =>
    Effect.gen(function*() {
      const revision: Revision = { id: RevisionId.make(yield* secrets.newId), spaceId: proof.space.id, parents, type, createdAt: at }
      yield* revisions.insert(revision)
      yield* contents.save(revision.id, proof.space.id, stored.on, stored.delta)
      if (stored.content !== undefined) yield* kept.remember(revision.id, stored.content)
      return revision
    })

  /**
   * Makes `revision` the active one of `locked` (the space as read under its lock), whose content
   * went from `before` to `after`; the index follows in the same unit of work.
   */
  const activate = (locked: Space, revision: Revision, before: RevisionContent, after: RevisionContent, delta: ContentDelta) =>
    Effect.zipRight(
      spaces.setRevision(locked.id, revision.id, revision.createdAt),
      indexer.changed(locked.id, locked.revisionId, revision.id, before, after, delta)
    )

  return { record, activate } as const
})
