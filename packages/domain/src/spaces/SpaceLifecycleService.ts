import { Duration, Effect } from "effect"
import { Actor } from "../identity/Actor.js"
import { Conflict, PreconditionFailed } from "../shared/Errors.js"
import { SpaceId } from "../shared/Ids.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { CustomFieldRepository, SiblingRepository, SpaceContentLifecycle, SpaceRepository } from "./Ports.js"
import type { Space } from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"
import { SpaceViews } from "./SpaceViews.js"
import { makeSpaceWork } from "./SpaceWork.js"
import { placeAmong } from "./Tree.js"

/** Soft-deleted spaces can be restored for this long, then they are removed for good (Space lifecycle). */
export const SPACE_RETENTION = Duration.days(7)

/**
 * A space's lifecycle, in the API's `spaces` group: soft-deleting, restoring and duplicating a space,
 * and removing for good the spaces deleted more than `SPACE_RETENTION` ago.
 */
export class SpaceLifecycle extends Effect.Service<SpaceLifecycle>()("@octavo/domain/SpaceLifecycle", {
  effect: Effect.gen(function*() {
    const spaces = yield* SpaceRepository
    const siblings = yield* SiblingRepository
    const customFields = yield* CustomFieldRepository
    const lifecycle = yield* SpaceContentLifecycle
    const uow = yield* UnitOfWork
    const guard = yield* SpaceAccess
    const views = yield* SpaceViews
    const { firstRevision, newId } = yield* makeSpaceWork

    /** Soft delete: the space is hidden and can be restored for seven days. */
    const remove = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        const { space } = yield* guard.authorize(spaceId, "admin", "delete this space")
        yield* spaces.update({ ...space, deletedAt: yield* now })
      })

    const restore = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        const { access, space, tree } = yield* guard.authorize(spaceId, "admin", "restore this space", { deleted: true })
        if (space.deletedAt === undefined) return yield* new Conflict({ reason: "The space is not deleted" })
        const at = yield* now
        if (at.getTime() - space.deletedAt.getTime() > Duration.toMillis(SPACE_RETENTION)) {
          return yield* new PreconditionFailed({ reason: "The space was deleted more than 7 days ago and can no longer be restored" })
        }
        const { deletedAt: _, ...restored } = { ...space, updatedAt: at }
        yield* spaces.update(restored)
        return yield* views.one(access, tree, restored)
      })

    /** A new space with the same settings, content and custom field values, right after the original. */
    const duplicate = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        const { access, space, tree } = yield* guard.space(spaceId)
        yield* guard.requireCreateUnder(access, tree, space.parentId)
        const actor = yield* Actor
        const copy = yield* uow.transaction(Effect.gen(function*() {
          const id = SpaceId.make(yield* newId)
          const revision = yield* firstRevision(id, [space.revisionId])
          yield* lifecycle.duplicated(space, id, revision.id)
          const others = yield* siblings.childrenOf(space.organizationId, space.parentId)
          const { deletedAt: _, ...settings } = space
          const copy: Space = {
            ...settings,
            id,
            position: yield* placeAmong(others, { after: { type: "space", space: space.id } }),
            revisionId: revision.id,
            createdBy: actor.id,
            createdAt: revision.createdAt,
            updatedAt: revision.createdAt
          }
          yield* spaces.insert(copy)
          const values = yield* customFields.valuesOf(space.id)
          if (values.size > 0) yield* customFields.setValues(id, values)
          return copy
        }))
        return yield* views.one(access, tree, copy)
      })

    /** Removes spaces soft-deleted more than seven days ago; safe to run from several servers at once. */
    const purgeExpired = Effect.gen(function*() {
      // Exactly seven days after deletion a space can still be restored; a millisecond later it cannot.
      const cutoff = new Date((yield* now).getTime() - Duration.toMillis(SPACE_RETENTION) - 1)
      let purged = 0
      for (;;) {
        const expired = yield* spaces.listDeletedBefore(cutoff, 100)
        if (expired.length === 0) return purged
        yield* Effect.forEach(expired, (space) => uow.transaction(Effect.zipRight(spaces.delete(space.id), lifecycle.purged(space.id))), {
          discard: true
        })
        purged += expired.length
      }
    })

    return { delete: remove, restore, duplicate, purgeExpired } as const
  })
}) {}
