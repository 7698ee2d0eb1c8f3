import { Effect } from "effect"
import { requireRole } from "../organizations/Policy.js"
import type { CollectionId, OrganizationId, SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { CustomFieldRepository, SpaceRepository } from "./Ports.js"
import { MoveInput, type Space } from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"
import { SpaceViews } from "./SpaceViews.js"
import { makeSpaceWork, visibilityUnder } from "./SpaceWork.js"
import { placeAmong } from "./Tree.js"

/**
 * A space's place, in the API's `spaces` group: moving it in its organization's tree, and
 * transferring it to another organization.
 */
export class SpacePlacement extends Effect.Service<SpacePlacement>()("@octavo/domain/SpacePlacement", {
  effect: Effect.gen(function*() {
    const spaces = yield* SpaceRepository
    const customFields = yield* CustomFieldRepository
    const uow = yield* UnitOfWork
    const guard = yield* SpaceAccess
    const views = yield* SpaceViews
    const { childrenWithout } = yield* makeSpaceWork

    const move = (spaceId: SpaceId, input: MoveInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(MoveInput)(input)
        const { access, space, tree } = yield* guard.authorize(spaceId, "admin", "move this space")
        const parentId = valid.parent === undefined ? space.parentId : valid.parent
        if (parentId !== null) yield* guard.findParent(space.organizationId, tree, parentId, "parent")
        yield* guard.requireCreateUnder(access, tree, parentId)
        const moved = yield* uow.transaction(Effect.gen(function*() {
          const others = yield* childrenWithout(space.organizationId, parentId, space.id)
          const moved: Space = {
            ...space,
            parentId,
            position: yield* placeAmong(others, valid.position),
            visibility: visibilityUnder(parentId, space.visibility),
            updatedAt: yield* now
          }
          yield* spaces.update(moved)
          return moved
        }))
        return yield* views.one(access, tree, moved)
      })

    /** To another organization (admin in both), optionally into one of its collections, at the end. */
    const transfer = (spaceId: SpaceId, input: { readonly organization: OrganizationId; readonly collection?: CollectionId | undefined }) =>
      Effect.gen(function*() {
        const { access, space } = yield* guard.space(spaceId)
        yield* requireRole(access.member, "admin", "transfer spaces out of this organization")
        const target = yield* guard.organization(input.organization)
        const targetTree = yield* guard.treeOf(input.organization)
        const parentId = input.collection ?? null
        if (parentId !== null) yield* guard.findParent(input.organization, targetTree, parentId, "collection")
        yield* requireRole(target.member, "admin", "transfer spaces into that organization")
        const moved = yield* uow.transaction(Effect.gen(function*() {
          const moved: Space = {
            ...space,
            organizationId: input.organization,
            parentId,
            position: yield* placeAmong(yield* childrenWithout(input.organization, parentId, space.id), undefined),
            visibility: visibilityUnder(parentId, space.visibility),
            updatedAt: yield* now
          }
          yield* spaces.update(moved)
          // Custom fields belong to an organization: the values of the old one do not travel.
          if (input.organization !== space.organizationId) {
            const values = yield* customFields.valuesOf(space.id)
            if (values.size > 0) yield* customFields.setValues(space.id, new Map(Array.from(values.keys(), (k) => [k, null])))
          }
          return moved
        }))
        return yield* views.one(target, targetTree, moved)
      })

    return { move, transfer } as const
  })
}) {}
