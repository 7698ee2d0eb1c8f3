import { Effect } from "effect"
import { Conflict } from "../shared/Errors.js"
import type { RevisionId, SpaceId } from "../shared/Ids.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import type { Space } from "../spaces/Space.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import type { ChangeRequest } from "./ChangeRequest.js"
import { makeChangeRequestWork, requireOpenForWork } from "./ChangeRequestWork.js"
import { mergeContent } from "./Merge.js"
import type { ContentDelta } from "./Page.js"
import { ChangeRequestRepository } from "./Ports.js"
import { RevisionContents } from "./RevisionContents.js"
import { makeRevisions } from "./Revisions.js"

export interface MergeResult {
  readonly result: "merge" | "update" | "conflicts"
  readonly revision: RevisionId
}

/**
 * Merging change requests (the API's `changeRequests` group): into the space, or the space's
 * changes into the change request; both a three-way merge under the space's lock.
 */
export class ChangeRequestMerges extends Effect.Service<ChangeRequestMerges>()("@octavo/domain/ChangeRequestMerges", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const changeRequests = yield* ChangeRequestRepository
    const contents = yield* RevisionContents
    const uow = yield* UnitOfWork
    const written = yield* makeRevisions
    const { find } = yield* makeChangeRequestWork

    /** Three-way merge of the change request's changes since its base onto the space's revision. */
    const combine = (space: Space, changeRequest: ChangeRequest) =>
      Effect.gen(function*() {
        const base = yield* contents.load(changeRequest.baseRevisionId)
        const ours = yield* contents.load(changeRequest.revisionId)
        const theirs = yield* contents.load(space.revisionId)
        return { outcome: yield* mergeContent(base, ours, theirs), theirs }
      })

    /** Merging needs the `merge` permission (review level) and a space that is not locked. */
    const merge = (spaceId: SpaceId, reference: string) =>
      Effect.gen(function*() {
        const proof = yield* guard.authorize(spaceId, "review", "merge change requests in this space")
        return yield* uow.transaction(Effect.gen(function*() {
          const space = yield* guard.lockForChange(proof)
          if (space.editMode === "locked") return yield* new Conflict({ reason: "The space is locked: nothing can be merged into it" })
          const changeRequest = yield* find(space, reference)
          yield* requireOpenForWork(changeRequest)
          const { outcome, theirs } = yield* combine(space, changeRequest)
          if (outcome._tag === "conflicts") return { result: "conflicts", revision: changeRequest.revisionId } satisfies MergeResult
          const at = yield* now
          const revision = yield* written.record(proof, [space.revisionId, changeRequest.revisionId], "merge", at, {
            on: space.revisionId,
            delta: outcome.delta,
            content: outcome.content
          })
          yield* written.activate(space, revision, theirs, outcome.content, outcome.delta)
          yield* changeRequests.update({ ...changeRequest, status: "merged", mergedAt: at, updatedAt: at })
          return { result: "merge", revision: revision.id } satisfies MergeResult
        }))
      })

    /** Brings the space's changes into the change request, which is then based on the space's revision. */
    const updateFromSpace = (spaceId: SpaceId, reference: string) =>
      Effect.gen(function*() {
        const proof = yield* guard.authorize(spaceId, "edit", "update change requests in this space")
        return yield* uow.transaction(Effect.gen(function*() {
          const space = yield* guard.lockForChange(proof)
          const changeRequest = yield* find(space, reference)
          yield* requireOpenForWork(changeRequest)
          if (changeRequest.baseRevisionId === space.revisionId) {
            return { result: "update", revision: changeRequest.revisionId } satisfies MergeResult
          }
          const { outcome } = yield* combine(space, changeRequest)
          if (outcome._tag === "conflicts") return { result: "conflicts", revision: changeRequest.revisionId } satisfies MergeResult
          const at = yield* now
          // Stored against the space's revision: the delta is the change request's own changes.
          const delta: ContentDelta = outcome.delta
          const revision = yield* written.record(proof, [changeRequest.revisionId, space.revisionId], "update", at, {
            on: space.revisionId,
            delta,
            content: outcome.content
          })
          yield* changeRequests.update({ ...changeRequest, baseRevisionId: space.revisionId, revisionId: revision.id, updatedAt: at })
          return { result: "update", revision: revision.id } satisfies MergeResult
        }))
      })

    return { merge, updateFromSpace } as const
  })
}) {}
