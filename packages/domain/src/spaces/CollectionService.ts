import { Effect } from "effect"
import { requireNotGuest } from "../organizations/Policy.js"
import { CollectionId, type OrganizationId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { mapPage, type PageRequest } from "../shared/Pagination.js"
import { keyAfterLast, keyBetween } from "../shared/Position.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { requireLevel } from "./ContentPolicy.js"
import { CollectionRepository, type ParentFilter, SiblingRepository, SpaceRepository } from "./Ports.js"
import { type Collection, CreateCollectionInput, UpdateCollectionInput } from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"
import { SpaceViews } from "./SpaceViews.js"
import { makeSpaceWork, visibilityUnder } from "./SpaceWork.js"
import { indexCollections, placeAmong } from "./Tree.js"

/**
 * Collections, the API's `collections` group: creating, reading, changing, deleting and listing
 * collections, and the spaces one holds. Moving and transferring them are `CollectionPlacement`.
 */
export class Collections extends Effect.Service<Collections>()("@octavo/domain/Collections", {
  effect: Effect.gen(function*() {
    const collections = yield* CollectionRepository
    const spaces = yield* SpaceRepository
    const siblings = yield* SiblingRepository
    const uow = yield* UnitOfWork
    const guard = yield* SpaceAccess
    const views = yield* SpaceViews
    const { childrenWithout, collectionView, newId } = yield* makeSpaceWork

    const create = (organizationId: OrganizationId, input: CreateCollectionInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateCollectionInput)(input)
        const { access, tree } = yield* guard.organizationWithTree(organizationId)
        const parentId = valid.parent ?? null
        yield* guard.requireCreateUnder(access, tree, parentId)
        const at = yield* now
        const collection = yield* uow.transaction(Effect.gen(function*() {
          const collection: Collection = {
            id: CollectionId.make(yield* newId),
            organizationId,
            title: valid.title ?? "Untitled",
            parentId,
            position: yield* placeAmong(yield* siblings.childrenOf(organizationId, parentId), undefined),
            defaultLevel: "read",
            createdAt: at,
            updatedAt: at
          }
          yield* collections.insert(collection)
          return collection
        }))
        return collectionView(access.member, indexCollections([...tree.values(), collection]), collection)
      })

    const get = (collectionId: CollectionId) =>
      Effect.map(guard.collection(collectionId), ({ access, collection, tree }) => collectionView(access.member, tree, collection))

    /** Title and description need `edit` on the collection; its default level needs `admin`. */
    const update = (collectionId: CollectionId, input: UpdateCollectionInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateCollectionInput)(input)
        const { access, collection, level, tree } = yield* guard.collection(collectionId)
        yield* requireLevel(level, "edit", "change this collection")
        if (valid.defaultLevel !== undefined) yield* requireLevel(level, "admin", "change this collection's default level")
        const updated: Collection = {
          ...collection,
          title: valid.title ?? collection.title,
          ...(valid.description !== undefined ? { description: valid.description } : {}),
          defaultLevel: valid.defaultLevel === undefined ? collection.defaultLevel : valid.defaultLevel,
          updatedAt: yield* now
        }
        yield* collections.update(updated)
        return collectionView(access.member, indexCollections([...tree.values(), updated]), updated)
      })

    /**
     * Deleting a collection loses no content: what it holds (collections and spaces, soft-deleted
     * ones too) moves up to its parent, after the parent's other children, in the order it had.
     */
    const remove = (collectionId: CollectionId) =>
      Effect.gen(function*() {
        const { collection, level } = yield* guard.collection(collectionId)
        yield* requireLevel(level, "admin", "delete this collection")
        yield* uow.transaction(Effect.gen(function*() {
          const organizationId = collection.organizationId
          const held = yield* siblings.childrenOf(organizationId, collection.id)
          const ordered = [...held].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1))
          const tree = yield* guard.treeOf(organizationId)
          const heldSpaces = new Map((yield* spaces.listInCollections([collection.id])).map((s) => [s.id as string, s]))
          let position = keyAfterLast((yield* childrenWithout(organizationId, collection.parentId, collection.id)).map((s) => s.position))
          for (const [i, child] of ordered.entries()) {
            if (i > 0) position = keyBetween(position, undefined)
            const space = heldSpaces.get(child.id)
            if (space !== undefined) {
              yield* spaces.update({
                ...space,
                parentId: collection.parentId,
                position,
                visibility: visibilityUnder(collection.parentId, space.visibility)
              })
              continue
            }
            const sub = tree.get(child.id)
            if (sub !== undefined) yield* collections.update({ ...sub, parentId: collection.parentId, position })
          }
          yield* collections.delete(collection.id)
        }))
      })

    /** `nested` (the default) lists every collection; otherwise only those at the top. */
    const list = (organizationId: OrganizationId, nested: boolean, page: PageRequest) =>
      Effect.gen(function*() {
        const { access, tree } = yield* guard.organizationWithTree(organizationId)
        yield* requireNotGuest(access.member, "list collections")
        const filter: ParentFilter = nested ? { _tag: "all" } : { _tag: "children", parentId: null }
        const result = yield* collections.list(organizationId, filter, page)
        return mapPage(result, (c) => collectionView(access.member, tree, c))
      })

    const listSpaces = (collectionId: CollectionId, page: PageRequest) =>
      Effect.gen(function*() {
        const { access, collection, tree } = yield* guard.collection(collectionId)
        const result = yield* spaces.list(collection.organizationId, { _tag: "children", parentId: collection.id }, page)
        return { ...result, items: yield* views.of(access, tree, result.items) }
      })

    return { create, get, update, delete: remove, list, listSpaces } as const
  })
}) {}
