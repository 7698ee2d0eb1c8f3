import { Effect } from "effect"
import { requireRole } from "../organizations/Policy.js"
import { Conflict } from "../shared/Errors.js"
import type { CollectionId, OrganizationId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { requireLevel } from "./ContentPolicy.js"
import { CollectionRepository, SiblingRepository, SpaceRepository } from "./Ports.js"
import { type Collection, MoveInput } from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"
import { makeSpaceWork } from "./SpaceWork.js"
import { descendants, indexCollections, isWithin, placeAmong } from "./Tree.js"

/**
 * A collection's place, in the API's `collections` group: moving it in its organization's tree, and
 * transferring it, with all it holds, to another organization.
 */
export class CollectionPlacement extends Effect.Service<CollectionPlacement>()("@octavo/domain/CollectionPlacement", {
  effect: Effect.gen(function*() {
    const collections = yield* CollectionRepository
    const spaces = yield* SpaceRepository
    const siblings = yield* SiblingRepository
    const uow = yield* UnitOfWork
    const guard = yield* SpaceAccess
    const { childrenWithout, collectionView } = yield* makeSpaceWork

    /** Moves need `admin` on the item and `create` under the target; a collection cannot go into itself or below. */
    const move = (collectionId: CollectionId, input: MoveInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(MoveInput)(input)
        const { access, collection, level, tree } = yield* guard.collection(collectionId)
        yield* requireLevel(level, "admin", "move this collection")
        const parentId = valid.parent === undefined ? collection.parentId : valid.parent
        if (parentId !== null) {
          yield* guard.findParent(collection.organizationId, tree, parentId, "parent")
          if (isWithin(tree, parentId, collection.id)) {
            return yield* new Conflict({ reason: "A collection cannot be moved into itself or one of its descendants" })
          }
        }
        yield* guard.requireCreateUnder(access, tree, parentId)
        const moved = yield* uow.transaction(Effect.gen(function*() {
          const others = yield* childrenWithout(collection.organizationId, parentId, collection.id)
          const moved: Collection = { ...collection, parentId, position: yield* placeAmong(others, valid.position), updatedAt: yield* now }
          yield* collections.update(moved)
          return moved
        }))
        return collectionView(access.member, indexCollections([...tree.values(), moved]), moved)
      })

    /** Transfers need `admin` in both organizations; what the collection holds goes with it, to the top of the target. */
    const transfer = (collectionId: CollectionId, targetId: OrganizationId) =>
      Effect.gen(function*() {
        const { access, collection, tree } = yield* guard.collection(collectionId)
        yield* requireRole(access.member, "admin", "transfer collections out of this organization")
        const target = yield* guard.organization(targetId)
        yield* requireRole(target.member, "admin", "transfer collections into that organization")
        const moved = yield* uow.transaction(Effect.gen(function*() {
          const below = descendants(tree, collection.id)
          const at = yield* now
          const moved: Collection = {
            ...collection,
            organizationId: targetId,
            parentId: null,
            position: yield* placeAmong(yield* siblings.childrenOf(targetId, null), undefined),
            updatedAt: at
          }
          yield* collections.update(moved)
          yield* Effect.forEach(below, (c) => collections.update({ ...c, organizationId: targetId, updatedAt: at }), { discard: true })
          const held = yield* spaces.listInCollections([collection.id, ...below.map((c) => c.id)])
          yield* Effect.forEach(held, (s) => spaces.update({ ...s, organizationId: targetId, updatedAt: at }), { discard: true })
          return moved
        }))
        const targetTree = yield* guard.treeOf(targetId)
        return collectionView(target.member, targetTree, moved)
      })

    return { move, transfer } as const
  })
}) {}
