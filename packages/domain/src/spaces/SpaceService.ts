import { Effect, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import { requireNotGuest } from "../organizations/Policy.js"
import { MemberRepository } from "../organizations/Ports.js"
import { InvalidInput, NotFound } from "../shared/Errors.js"
import { type OrganizationId, SpaceId, type UserId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { Order, PageRequest } from "../shared/Pagination.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SiblingRepository, SpaceContentLifecycle, SpaceRepository } from "./Ports.js"
import { CreateSpaceInput, ShareKey, type Space, UpdateSpaceInput } from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"
import { SpaceViews } from "./SpaceViews.js"
import { makeSpaceWork } from "./SpaceWork.js"
import { placeAmong } from "./Tree.js"

/**
 * Spaces, the API's `spaces` group: creating, reading, changing and listing spaces, and the spaces a
 * member can access. Deleting, restoring, duplicating and purging them are `SpaceLifecycle`; moving
 * and transferring them, `SpacePlacement`.
 */
export class Spaces extends Effect.Service<Spaces>()("@octavo/domain/Spaces", {
  effect: Effect.gen(function*() {
    const spaces = yield* SpaceRepository
    const siblings = yield* SiblingRepository
    const members = yield* MemberRepository
    const lifecycle = yield* SpaceContentLifecycle
    const uow = yield* UnitOfWork
    const guard = yield* SpaceAccess
    const views = yield* SpaceViews
    const { firstRevision, newId } = yield* makeSpaceWork

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

    /** Title, emoji, icon and language need `edit`; the edit mode and default level need `admin`. */
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
          ...(valid.language ?? space.language) !== undefined ? { language: valid.language ?? space.language } : {},
          updatedAt: yield* now
        }
        yield* spaces.update(updated)
        return yield* views.one(access, tree, updated)
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

    return { create, get, update, list, memberSpaces } as const
  })
}) {}
