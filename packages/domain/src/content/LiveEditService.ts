import { Effect } from "effect"
import { Conflict } from "../shared/Errors.js"
import type { SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { HeavyWork } from "../shared/HeavyWork.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { PageLinkTargetsLive } from "./Caches.js"
import { type AppliedChange, applyChanges, type FetchedFile } from "./Changes.js"
import { type EditedView, makeContentWork } from "./ContentWork.js"
import { makeFileFetch } from "./Fetch.js"
import { ContentChanges, type RevisionContent } from "./Page.js"
import { RevisionContents } from "./RevisionContents.js"
import { makeRevisions } from "./Revisions.js"

const lockedSpace = new Conflict({ reason: "The space is locked: its content cannot be edited" })

/** Editing a space's content live (the API's `content` group): one batch of changes, one new active revision. */
export class LiveEdits extends Effect.Service<LiveEdits>()("@octavo/domain/LiveEdits", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const contents = yield* RevisionContents
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const written = yield* makeRevisions
    const fetchFiles = yield* makeFileFetch
    const work = yield* HeavyWork
    const { contentOfRevision, storeBlob } = yield* makeContentWork

    /** The space, when the actor may edit it live: `edit` level, and not locked (409). */
    const requireEditable = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        const proof = yield* guard.authorize(spaceId, "edit", "edit this space")
        if (proof.space.editMode === "locked") return yield* lockedSpace
        return proof
      })

    /**
     * Live editing: `edit` level, and the space must not be locked. `plan` turns the active
     * revision's content into the changes to apply; one batch, one new revision.
     */
    const editLiveWith = <E>(
      spaceId: SpaceId,
      plan: (base: RevisionContent) => Effect.Effect<ReadonlyArray<AppliedChange>, E>,
      fetched?: ReadonlyMap<string, FetchedFile>
    ) =>
      Effect.gen(function*() {
        const proof = yield* requireEditable(spaceId)
        return yield* uow.transaction(Effect.gen(function*() {
          const space = yield* guard.lockForChange(proof)
          if (space.editMode === "locked") return yield* lockedSpace
          const base = yield* contents.load(space.revisionId)
          const at = yield* now
          const applied = yield* applyChanges(base, yield* plan(base), {
            now: at,
            newId: secrets.newId,
            storeBlob,
            fetched,
            revertBase: Effect.succeed(base),
            revisionContent: contentOfRevision(space.id),
            work
          })
          const revision = yield* written.record(proof, [space.revisionId], "edits", at, {
            on: space.revisionId,
            delta: applied.delta,
            content: applied.content
          })
          yield* written.activate(space, revision, base, applied.content, applied.delta)
          return {
            revision,
            content: applied.content,
            outcomes: applied.outcomes,
            insertedFiles: applied.insertedFiles
          } satisfies EditedView
        }))
      })

    /** Applies a batch of changes into one new active revision; files by URL are fetched first. */
    const editLive = (spaceId: SpaceId, input: ContentChanges) =>
      Effect.gen(function*() {
        const valid = yield* validate(ContentChanges)(input)
        yield* requireEditable(spaceId)
        const fetched = yield* fetchFiles(valid.changes)
        return yield* editLiveWith(spaceId, () => Effect.succeed(valid.changes), fetched)
      })

    return { requireEditable, editLiveWith, editLive } as const
  }),
  dependencies: [PageLinkTargetsLive]
}) {}
