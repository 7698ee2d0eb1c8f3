import { Duration, Effect, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import { requireNotGuest, requireRole } from "../organizations/Policy.js"
import { MemberRepository } from "../organizations/Ports.js"
import { Conflict, InvalidInput, NotFound, PreconditionFailed } from "../shared/Errors.js"
import { type CollectionId, type OrganizationId, RevisionId, SpaceId, type UserId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { Order, PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { CustomFieldRepository, RevisionRepository, SiblingRepository, SpaceContentLifecycle, SpaceRepository } from "./Ports.js"
import { CreateSpaceInput, MoveInput, type Revision, ShareKey, type Space, UpdateSpaceInput } from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"
import { SpaceViews } from "./SpaceViews.js"
import { placeAmong } from "./Tree.js"

/** Soft-deleted spaces can be restored for this long, then they are removed for good (Space lifecycle). */
export const SPACE_RETENTION = Duration.days(7)

/** Spaces: their place in the tree, lifecycle and settings. */
export class Spaces extends Effect.Service<Spaces>()("@octavo/domain/Spaces", {
  effect: Effect.gen(function*() {
    const spaces = yield* SpaceRepository
    const siblings = yield* SiblingRepository
    const revisions = yield* RevisionRepository
    const customFields = yield* CustomFieldRepository
    const members = yield* MemberRepository
    const lifecycle = yield* SpaceContentLifecycle
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const guard = yield* SpaceAccess
    const views = yield* SpaceViews
    const newId = secrets.newId

    const childrenWithout = (organizationId: OrganizationId, parentId: CollectionId | null, id: string) =>
      Effect.map(siblings.childrenOf(organizationId, parentId), (all) => all.filter((s) => s.id !== id))

    const firstRevision = (spaceId: SpaceId, parents: ReadonlyArray<RevisionId>) =>
      Effect.gen(function*() {
        const revision: Revision = { id: RevisionId.make(yield* newId), spaceId, parents, type: "edits", createdAt: yield* now }
        yield* revisions.insert(revision)
        return revision
      })

    const create = (organizationId: OrganizationId, input: CreateSpaceInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateSpaceInput)(input)
        const { access, tree } = yield* guard.organizationWithTree(organizationId)
        const parentId = valid.parent ?? null
        yield* guard.requireCreateUnder(access, tree, parentId)
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
          yield* lifecycle.created(id, revision.id)
          return space
        }))
        return yield* views.one(access, tree, space)
      })

    /** With a share key that opens a site showing the space, its published URL carries the key; any other key changes nothing. */
    const get = (spaceId: SpaceId, shareKey?: string) =>
      Effect.gen(function*() {
        if (shareKey !== undefined)
          yield* validate(ShareKey)(shareKey).pipe(Effect.mapError((e) => new InvalidInput({ field: "shareKey", rule: e.rule })))
        const { access, space, tree } = yield* guard.space(spaceId)
        return yield* views.one(access, tree, space, shareKey)
      })

    /** Title, emoji and icon need `edit`; the edit mode and default level need `admin`. */
    const update = (spaceId: SpaceId, input: UpdateSpaceInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateSpaceInput)(input)
        const grant = yield* guard.authorize(spaceId, "edit", "change this space")
        if (valid.editMode !== undefined || valid.defaultLevel !== undefined) {
          yield* guard.require(grant, "admin", "change this space's edit mode or default level")
        }
        const { access, space, tree } = grant
        const { icon: _, ...rest } = space
        // A space shows an emoji or an icon: setting one removes the other.
        const icon = typeof valid.emoji === "string" ? undefined : valid.icon === undefined ? space.icon : valid.icon ?? undefined
        const updated: Space = {
          ...rest,
          title: valid.title ?? space.title,
          emoji: typeof valid.icon === "string" ? "" : valid.emoji === undefined ? space.emoji : valid.emoji ?? "",
          ...(icon !== undefined ? { icon } : {}),
          editMode: valid.editMode ?? space.editMode,
          defaultLevel: valid.defaultLevel === undefined ? space.defaultLevel : valid.defaultLevel,
          updatedAt: yield* now
        }
        yield* spaces.update(updated)
        return yield* views.one(access, tree, updated)
      })

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
            // "in-collection" only means something inside a collection.
            visibility: parentId === null && space.visibility === "in-collection" ? "private" : space.visibility,
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
        return yield* views.one(target, targetTree, moved)
      })

    const list = (organizationId: OrganizationId, page: PageRequest) =>
      Effect.gen(function*() {
        const { access, tree } = yield* guard.organizationWithTree(organizationId)
        yield* requireNotGuest(access.member, "list spaces")
        const result = yield* spaces.list(organizationId, { _tag: "all" }, page)
        return { ...result, items: yield* views.of(access, tree, result.items) }
      })

    /**
     * The spaces a member can access, each with the member's effective level on it: every space
     * of the organization for a member with a role (it is the floor), none for a guest.
     */
    const memberSpaces = (organizationId: OrganizationId, userId: UserId, order: Order, page: PageRequest) =>
      Effect.gen(function*() {
        const { access, tree } = yield* guard.organizationWithTree(organizationId)
        if (access.member.userId !== userId) yield* requireNotGuest(access.member, "read other members' spaces")
        const member = access.member.userId === userId ? Option.some(access.member) : yield* members.find(organizationId, userId)
        if (Option.isNone(member)) return yield* new NotFound({ entity: "member", id: userId })
        const role = member.value.role
        if (role === null) return { items: [], count: 0, next: Option.none() }
        const result = yield* spaces.list(organizationId, { _tag: "all", order }, page)
        const listed = yield* views.of(access, tree, result.items)
        return {
          ...result,
          items: listed.map((view) => ({
            permission: guard.levelOn(member.value, tree, view.space.defaultLevel, view.space.parentId) ?? role,
            space: view
          }))
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
        yield* Effect.forEach(expired, (space) => uow.transaction(Effect.zipRight(spaces.delete(space.id), lifecycle.purged(space.id))), {
          discard: true
        })
        purged += expired.length
      }
    })

    return { create, get, update, delete: remove, restore, duplicate, move, transfer, list, memberSpaces, purgeExpired } as const
  })
}) {}
