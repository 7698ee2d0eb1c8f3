import { Duration, Effect, Option } from "effect"
import { makeAccess, type Membership } from "../organizations/Access.js"
import type { Member } from "../organizations/Organization.js"
import { requireNotGuest, requireRole } from "../organizations/Policy.js"
import { MemberRepository } from "../organizations/Ports.js"
import { emptyContent } from "../content/Page.js"
import { ChangeRequestRepository, type ChangeRequestCounts, RevisionContentRepository } from "../content/Ports.js"
import { Actor } from "../identity/Actor.js"
import { Conflict, InvalidInput, NotFound, PreconditionFailed } from "../shared/Errors.js"
import { CollectionId, type OrganizationId, RevisionId, SpaceId, type UserId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { type Keyset, mapPage, MAX_LIMIT, type Order, type PageRequest } from "../shared/Pagination.js"
import type { Role } from "../shared/Role.js"
import { Secrets } from "../shared/Secrets.js"
import { keyAfterLast, keyBetween } from "../shared/Position.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import {
  type CollectionPermissions,
  collectionPermissions,
  effectiveLevel,
  requireLevel,
  type SpacePermissions,
  spacePermissions
} from "./ContentPolicy.js"
import {
  CollectionRepository,
  CustomFieldRepository,
  type ParentFilter,
  RevisionRepository,
  SiblingRepository,
  SpaceRepository
} from "./Ports.js"
import {
  type Collection,
  CreateCollectionInput,
  CreateSpaceInput,
  MoveInput,
  type Revision,
  type Space,
  UpdateCollectionInput,
  UpdateSpaceInput
} from "./Space.js"
import { makeIndexing } from "../search/Indexing.js"
import { type CollectionIndex, defaultLevelsOf, descendants, indexCollections, isWithin, placeAmong } from "./Tree.js"

/** Soft-deleted spaces can be restored for this long, then they are removed for good (Space lifecycle). */
export const SPACE_RETENTION = Duration.days(7)

export interface CollectionView {
  readonly collection: Collection
  readonly permissions: CollectionPermissions
}

/** A space with what the caller may do in it, and its counters (zero until their slices exist). */
export interface SpaceView {
  readonly space: Space
  readonly permissions: SpacePermissions
  readonly counts: {
    readonly comments: number
    readonly changeRequests: number
    readonly changeRequestsOpen: number
    readonly changeRequestsDraft: number
  }
}

const noCounts = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 } as const

/** Collections and spaces: their tree, lifecycle and content permissions. */
export class Spaces extends Effect.Service<Spaces>()("@octavo/domain/Spaces", {
  effect: Effect.gen(function*() {
    const collections = yield* CollectionRepository
    const spaces = yield* SpaceRepository
    const siblings = yield* SiblingRepository
    const revisions = yield* RevisionRepository
    const customFields = yield* CustomFieldRepository
    const changeRequests = yield* ChangeRequestRepository
    const contents = yield* RevisionContentRepository
    const members = yield* MemberRepository
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const accessOrganization = yield* makeAccess
    const indexing = yield* makeIndexing

    const newId = secrets.newId
    const index = (organizationId: OrganizationId) => Effect.map(collections.listAll(organizationId), indexCollections)

    const levelOn = (member: Member, tree: CollectionIndex, own: Role, parentId: CollectionId | null) =>
      effectiveLevel(member, defaultLevelsOf(tree, own, parentId))

    const collectionView = (member: Member, tree: CollectionIndex, collection: Collection): CollectionView => ({
      collection,
      permissions: collectionPermissions(levelOn(member, tree, collection.defaultLevel, collection.parentId))
    })

    const spaceView = (member: Member, tree: CollectionIndex, space: Space, counts: ReadonlyMap<SpaceId, ChangeRequestCounts>): SpaceView => {
      const c = counts.get(space.id)
      return {
        space,
        permissions: spacePermissions(levelOn(member, tree, space.defaultLevel, space.parentId)),
        counts: c === undefined ? noCounts : { ...noCounts, changeRequests: c.total, changeRequestsOpen: c.open, changeRequestsDraft: c.draft }
      }
    }

    /** The views of spaces with their counters, counted in one query. */
    const viewsOf = (member: Member, tree: CollectionIndex, list: ReadonlyArray<Space>) =>
      Effect.map(changeRequests.countsFor(list.map((s) => s.id)), (counts) => list.map((s) => spaceView(member, tree, s, counts)))

    const viewOf = (member: Member, tree: CollectionIndex, space: Space) =>
      Effect.map(viewsOf(member, tree, [space]), (views) => views[0] as SpaceView)

    /** The level needed to create something under a parent: `create` there, or as an organization role at the top. */
    const requireCreateUnder = (access: Membership, tree: CollectionIndex, parentId: CollectionId | null) =>
      parentId === null
        ? requireRole(access.member, "create", "create content at the top of the organization")
        : Effect.flatMap(findParent(access.organization.id, tree, parentId, "parent"), (parent) =>
          requireLevel(levelOn(access.member, tree, parent.defaultLevel, parent.parentId), "create", "create content in this collection"))

    /** A parent named in input: a collection of the same organization, or invalid input. */
    const findParent = (organizationId: OrganizationId, tree: CollectionIndex, parentId: CollectionId, field: string) => {
      const parent = tree.get(parentId)
      return parent === undefined || parent.organizationId !== organizationId
        ? Effect.fail(new InvalidInput({ field, rule: `${parentId} is not a collection of this organization` }))
        : Effect.succeed(parent)
    }

    /** A collection the actor can see, with its organization access and the organization's tree. */
    const accessCollection = (collectionId: CollectionId) =>
      Effect.gen(function*() {
        const notFound = new NotFound({ entity: "collection", id: collectionId })
        const found = yield* collections.findById(collectionId)
        if (Option.isNone(found)) return yield* notFound
        const access = yield* Effect.catchTag(accessOrganization(found.value.organizationId), "NotFound", () => Effect.fail(notFound))
        const tree = yield* index(found.value.organizationId)
        const level = levelOn(access.member, tree, found.value.defaultLevel, found.value.parentId)
        if (level === null) return yield* notFound
        return { access, tree, collection: found.value, level }
      })

    /** A space the actor can see; soft-deleted spaces are found only when `deleted` is allowed. */
    const accessSpace = (spaceId: SpaceId, options: { readonly deleted: boolean } = { deleted: false }) =>
      Effect.gen(function*() {
        const notFound = new NotFound({ entity: "space", id: spaceId })
        const found = yield* spaces.findById(spaceId)
        if (Option.isNone(found) || (found.value.deletedAt !== undefined && !options.deleted)) return yield* notFound
        const access = yield* Effect.catchTag(accessOrganization(found.value.organizationId), "NotFound", () => Effect.fail(notFound))
        const tree = yield* index(found.value.organizationId)
        const level = levelOn(access.member, tree, found.value.defaultLevel, found.value.parentId)
        if (level === null) return yield* notFound
        return { access, tree, space: found.value, level }
      })

    const childrenWithout = (organizationId: OrganizationId, parentId: CollectionId | null, id: string) =>
      Effect.map(siblings.childrenOf(organizationId, parentId), (all) => all.filter((s) => s.id !== id))

    // Collections

    const createCollection = (organizationId: OrganizationId, input: CreateCollectionInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateCollectionInput)(input)
        const access = yield* accessOrganization(organizationId)
        const tree = yield* index(organizationId)
        const parentId = valid.parent ?? null
        yield* requireCreateUnder(access, tree, parentId)
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

    const getCollection = (collectionId: CollectionId) =>
      Effect.map(accessCollection(collectionId), ({ access, collection, tree }) => collectionView(access.member, tree, collection))

    /** Title and description need `edit` on the collection; its default level needs `admin`. */
    const updateCollection = (collectionId: CollectionId, input: UpdateCollectionInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateCollectionInput)(input)
        const { access, collection, level, tree } = yield* accessCollection(collectionId)
        yield* requireLevel(level, "edit", "change this collection")
        if (valid.defaultLevel !== undefined) yield* requireLevel(level, "admin", "change this collection's default level")
        const updated: Collection = {
          ...collection,
          title: valid.title ?? collection.title,
          ...(valid.description !== undefined ? { description: valid.description } : {}),
          defaultLevel: valid.defaultLevel ?? collection.defaultLevel,
          updatedAt: yield* now
        }
        yield* collections.update(updated)
        return collectionView(access.member, indexCollections([...tree.values(), updated]), updated)
      })

    /**
     * Deleting a collection loses no content: what it holds (collections and spaces, soft-deleted
     * ones too) moves up to its parent, after the parent's other children, in the order it had.
     */
    const deleteCollection = (collectionId: CollectionId) =>
      Effect.gen(function*() {
        const { collection, level } = yield* accessCollection(collectionId)
        yield* requireLevel(level, "admin", "delete this collection")
        yield* uow.transaction(Effect.gen(function*() {
          const organizationId = collection.organizationId
          const held = yield* siblings.childrenOf(organizationId, collection.id)
          const ordered = [...held].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1))
          const tree = yield* index(organizationId)
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
                visibility: collection.parentId === null && space.visibility === "in-collection" ? "private" : space.visibility
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
    const listCollections = (organizationId: OrganizationId, nested: boolean, page: PageRequest) =>
      Effect.gen(function*() {
        const access = yield* accessOrganization(organizationId)
        yield* requireNotGuest(access.member, "list collections")
        const filter: ParentFilter = nested ? { _tag: "all" } : { _tag: "children", parentId: null }
        const result = yield* collections.list(organizationId, filter, page)
        const tree = yield* index(organizationId)
        return mapPage(result, (c) => collectionView(access.member, tree, c))
      })

    const listCollectionSpaces = (collectionId: CollectionId, page: PageRequest) =>
      Effect.gen(function*() {
        const { access, collection, tree } = yield* accessCollection(collectionId)
        const result = yield* spaces.list(collection.organizationId, { _tag: "children", parentId: collection.id }, page)
        return { ...result, items: yield* viewsOf(access.member, tree, result.items) }
      })

    /** Moves need `admin` on the item and `create` under the target; a collection cannot go into itself or below. */
    const moveCollection = (collectionId: CollectionId, input: MoveInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(MoveInput)(input)
        const { access, collection, level, tree } = yield* accessCollection(collectionId)
        yield* requireLevel(level, "admin", "move this collection")
        const parentId = valid.parent === undefined ? collection.parentId : valid.parent
        if (parentId !== null) {
          yield* findParent(collection.organizationId, tree, parentId, "parent")
          if (isWithin(tree, parentId, collection.id)) {
            return yield* new Conflict({ reason: "A collection cannot be moved into itself or one of its descendants" })
          }
        }
        yield* requireCreateUnder(access, tree, parentId)
        const moved = yield* uow.transaction(Effect.gen(function*() {
          const others = yield* childrenWithout(collection.organizationId, parentId, collection.id)
          const moved: Collection = { ...collection, parentId, position: yield* placeAmong(others, valid.position), updatedAt: yield* now }
          yield* collections.update(moved)
          return moved
        }))
        return collectionView(access.member, indexCollections([...tree.values(), moved]), moved)
      })

    /** Transfers need `admin` in both organizations; what the collection holds goes with it, to the top of the target. */
    const transferCollection = (collectionId: CollectionId, targetId: OrganizationId) =>
      Effect.gen(function*() {
        const { access, collection, tree } = yield* accessCollection(collectionId)
        yield* requireRole(access.member, "admin", "transfer collections out of this organization")
        const target = yield* accessOrganization(targetId)
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
        const targetTree = yield* index(targetId)
        return collectionView(target.member, targetTree, moved)
      })

    // Spaces

    const firstRevision = (spaceId: SpaceId, parents: ReadonlyArray<RevisionId>) =>
      Effect.gen(function*() {
        const revision: Revision = { id: RevisionId.make(yield* newId), spaceId, parents, type: "edits", createdAt: yield* now }
        yield* revisions.insert(revision)
        return revision
      })

    const createSpace = (organizationId: OrganizationId, input: CreateSpaceInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateSpaceInput)(input)
        const access = yield* accessOrganization(organizationId)
        const tree = yield* index(organizationId)
        const parentId = valid.parent ?? null
        yield* requireCreateUnder(access, tree, parentId)
        const actor = yield* Actor
        const space = yield* uow.transaction(Effect.gen(function*() {
          const id = SpaceId.make(yield* newId)
          const revision = yield* firstRevision(id, [])
          const space: Space = {
            id,
            organizationId,
            parentId,
            position: yield* placeAmong(yield* siblings.childrenOf(organizationId, parentId), undefined),
            title: valid.title ?? "Untitled",
            emoji: valid.emoji ?? "",
            visibility: parentId === null ? "private" : "in-collection",
            editMode: valid.editMode ?? "live",
            defaultLevel: "read",
            revisionId: revision.id,
            createdBy: actor.id,
            createdAt: revision.createdAt,
            updatedAt: revision.createdAt
          }
          yield* spaces.insert(space)
          yield* indexing.whole(id, revision.id, emptyContent)
          return space
        }))
        return yield* viewOf(access.member, tree, space)
      })

    const getSpace = (spaceId: SpaceId) =>
      Effect.flatMap(accessSpace(spaceId), ({ access, space, tree }) => viewOf(access.member, tree, space))

    /** Title and emoji need `edit`; the edit mode and default level need `admin`. */
    const updateSpace = (spaceId: SpaceId, input: UpdateSpaceInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateSpaceInput)(input)
        const { access, level, space, tree } = yield* accessSpace(spaceId)
        yield* requireLevel(level, "edit", "change this space")
        if (valid.editMode !== undefined || valid.defaultLevel !== undefined) {
          yield* requireLevel(level, "admin", "change this space's edit mode or default level")
        }
        const updated: Space = {
          ...space,
          title: valid.title ?? space.title,
          emoji: valid.emoji ?? space.emoji,
          editMode: valid.editMode ?? space.editMode,
          defaultLevel: valid.defaultLevel ?? space.defaultLevel,
          updatedAt: yield* now
        }
        yield* spaces.update(updated)
        return yield* viewOf(access.member, tree, updated)
      })

    /** Soft delete: the space is hidden and can be restored for seven days. */
    const deleteSpace = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        const { level, space } = yield* accessSpace(spaceId)
        yield* requireLevel(level, "admin", "delete this space")
        yield* spaces.update({ ...space, deletedAt: yield* now })
      })

    const restoreSpace = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        const { access, level, space, tree } = yield* accessSpace(spaceId, { deleted: true })
        yield* requireLevel(level, "admin", "restore this space")
        if (space.deletedAt === undefined) return yield* new Conflict({ reason: "The space is not deleted" })
        const at = yield* now
        if (at.getTime() - space.deletedAt.getTime() > Duration.toMillis(SPACE_RETENTION)) {
          return yield* new PreconditionFailed({ reason: "The space was deleted more than 7 days ago and can no longer be restored" })
        }
        const { deletedAt: _, ...restored } = { ...space, updatedAt: at }
        yield* spaces.update(restored)
        return yield* viewOf(access.member, tree, restored)
      })

    /** A new space with the same settings, content and custom field values, right after the original. */
    const duplicateSpace = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        const { access, space, tree } = yield* accessSpace(spaceId)
        yield* requireCreateUnder(access, tree, space.parentId)
        const actor = yield* Actor
        const copy = yield* uow.transaction(Effect.gen(function*() {
          const id = SpaceId.make(yield* newId)
          const revision = yield* firstRevision(id, [space.revisionId])
          // The copy's first revision holds what the original's holds: stored as an empty delta on it.
          yield* contents.save(revision.id, id, space.revisionId, { pages: [], deletedPages: [], files: [], deletedFiles: [] })
          yield* indexing.whole(id, revision.id, yield* contents.load(space.revisionId))
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
        return yield* viewOf(access.member, tree, copy)
      })

    const moveSpace = (spaceId: SpaceId, input: MoveInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(MoveInput)(input)
        const { access, level, space, tree } = yield* accessSpace(spaceId)
        yield* requireLevel(level, "admin", "move this space")
        const parentId = valid.parent === undefined ? space.parentId : valid.parent
        if (parentId !== null) yield* findParent(space.organizationId, tree, parentId, "parent")
        yield* requireCreateUnder(access, tree, parentId)
        const moved = yield* uow.transaction(Effect.gen(function*() {
          const others = yield* childrenWithout(space.organizationId, parentId, space.id)
          const moved: Space = {
            ...space,
            parentId,
            position: yield* placeAmong(others, valid.position),
            // "in-collection" only means something inside a collection.
            visibility: parentId === null && space.visibility === "in-collection" ? "private" : space.visibility,
            updatedAt: yield* now
          }
          yield* spaces.update(moved)
          return moved
        }))
        return yield* viewOf(access.member, tree, moved)
      })

    /** To another organization (admin in both), optionally into one of its collections, at the end. */
    const transferSpace = (spaceId: SpaceId, input: { readonly organization: OrganizationId; readonly collection?: CollectionId | undefined }) =>
      Effect.gen(function*() {
        const { access, space } = yield* accessSpace(spaceId)
        yield* requireRole(access.member, "admin", "transfer spaces out of this organization")
        const target = yield* accessOrganization(input.organization)
        const targetTree = yield* index(input.organization)
        const parentId = input.collection ?? null
        if (parentId !== null) yield* findParent(input.organization, targetTree, parentId, "collection")
        yield* requireRole(target.member, "admin", "transfer spaces into that organization")
        const moved = yield* uow.transaction(Effect.gen(function*() {
          const moved: Space = {
            ...space,
            organizationId: input.organization,
            parentId,
            position: yield* placeAmong(yield* childrenWithout(input.organization, parentId, space.id), undefined),
            visibility: parentId === null && space.visibility === "in-collection" ? "private" : space.visibility,
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
        return yield* viewOf(target.member, targetTree, moved)
      })

    const listSpaces = (organizationId: OrganizationId, page: PageRequest) =>
      Effect.gen(function*() {
        const access = yield* accessOrganization(organizationId)
        yield* requireNotGuest(access.member, "list spaces")
        const result = yield* spaces.list(organizationId, { _tag: "all" }, page)
        const tree = yield* index(organizationId)
        return { ...result, items: yield* viewsOf(access.member, tree, result.items) }
      })

    /** Every space of the organization with a member's effective level on it; guests have none. */
    const memberSpaces = (organizationId: OrganizationId, userId: UserId, order: Order, page: PageRequest) =>
      Effect.gen(function*() {
        const access = yield* accessOrganization(organizationId)
        if (access.member.userId !== userId) yield* requireNotGuest(access.member, "read other members' spaces")
        const member = yield* members.find(organizationId, userId)
        if (Option.isNone(member)) return yield* new NotFound({ entity: "member", id: userId })
        const tree = yield* index(organizationId)
        const result = yield* spaces.list(organizationId, { _tag: "all", order }, page)
        const views = yield* viewsOf(access.member, tree, result.items)
        return {
          ...result,
          items: views.map((view) => ({ permission: levelOn(member.value, tree, view.space.defaultLevel, view.space.parentId), space: view }))
        }
      })

    /** Every space of the organization the actor may read (soft-deleted ones left out); guests may not ask. */
    const readableSpaces = (organizationId: OrganizationId, action: string) =>
      Effect.gen(function*() {
        const access = yield* accessOrganization(organizationId)
        yield* requireNotGuest(access.member, action)
        const tree = yield* index(organizationId)
        const readable: Array<Space> = []
        let after: Option.Option<Keyset> = Option.none()
        for (;;) {
          const page = yield* spaces.list(organizationId, { _tag: "all" }, { limit: MAX_LIMIT, after })
          for (const space of page.items) {
            if (spacePermissions(levelOn(access.member, tree, space.defaultLevel, space.parentId)).access) readable.push(space)
          }
          if (Option.isNone(page.next)) return readable
          after = page.next
        }
      })

    /** Removes spaces soft-deleted more than seven days ago; safe to run from several servers at once. */
    const purgeExpired = Effect.gen(function*() {
      // Exactly seven days after deletion a space can still be restored; a millisecond later it cannot.
      const cutoff = new Date((yield* now).getTime() - Duration.toMillis(SPACE_RETENTION) - 1)
      let purged = 0
      for (;;) {
        const expired = yield* spaces.listDeletedBefore(cutoff, 100)
        if (expired.length === 0) return purged
        yield* Effect.forEach(expired, (space) => uow.transaction(Effect.zipRight(spaces.delete(space.id), indexing.remove(space.id))), {
          discard: true
        })
        purged += expired.length
      }
    })

    /**
     * Inside a unit of work: takes the space's lock for a change to its content, then reads it
     * again (it may have moved on since it was checked); a space deleted meanwhile is not found.
     */
    const lockForChange = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        yield* spaces.lock(spaceId)
        const found = yield* spaces.findById(spaceId)
        if (Option.isNone(found) || found.value.deletedAt !== undefined) return yield* new NotFound({ entity: "space", id: spaceId })
        return found.value
      })

    return {
      createCollection,
      getCollection,
      updateCollection,
      deleteCollection,
      listCollections,
      listCollectionSpaces,
      moveCollection,
      transferCollection,
      createSpace,
      getSpace,
      updateSpace,
      deleteSpace,
      restoreSpace,
      duplicateSpace,
      moveSpace,
      transferSpace,
      listSpaces,
      memberSpaces,
      purgeExpired,
      accessSpace,
      lockForChange,
      readableSpaces
    } as const
  })
}) {}
