import { Effect, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import { makeAccess, type Membership } from "../organizations/Access.js"
import type { Member } from "../organizations/Organization.js"
import { requireNotGuest, requireRole } from "../organizations/Policy.js"
import { type Forbidden, InvalidInput, NotFound } from "../shared/Errors.js"
import type { CollectionId, OrganizationId, SpaceId } from "../shared/Ids.js"
import { type Keyset, MAX_LIMIT } from "../shared/Pagination.js"
import type { Role, roles } from "../shared/Role.js"
import { effectiveLevel, requireLevel, spacePermissions } from "./ContentPolicy.js"
import { CollectionRepository, type ItemForAccess, SpaceRepository } from "./Ports.js"
import type { Collection, DefaultLevel, Space } from "./Space.js"
import { type CollectionIndex, defaultLevelsOf, indexCollections } from "./Tree.js"

/** The levels a level includes: `UpTo<"edit">` is "read" | "comment" | "edit". */
type UpTo<L extends Role, Rest extends ReadonlyArray<Role> = typeof roles> = Rest extends
  readonly [infer Head extends Role, ...infer Tail extends ReadonlyArray<Role>] ? Head extends L ? Head : Head | UpTo<L, Tail>
  : never

declare const granted: unique symbol

/** A space the actor can see, with its organization access, the organization's collections and the actor's level. */
export interface SpaceGrant {
  readonly access: Membership
  readonly tree: CollectionIndex
  readonly space: Space
  readonly level: Role
}

/**
 * Proof that the actor holds at least level `L` on `space`. Only `SpaceAccess` makes one, and the
 * paths that write a space's content take one, so a write whose check was forgotten does not
 * compile. A higher level proves the lower ones: `Authorized<"admin">` is an `Authorized<"edit">`.
 */
export interface Authorized<L extends Role> extends SpaceGrant {
  readonly [granted]: { readonly [K in UpTo<L>]: true }
}

/** A collection the actor can see, with the same context. */
export interface CollectionGrant {
  readonly access: Membership
  readonly tree: CollectionIndex
  readonly collection: Collection
  readonly level: Role
}

/**
 * Who may do what on collections and spaces (README, "Content permissions"): finds an item the
 * actor can see (others are not found), proves levels on it, and takes a space's lock for a change
 * to its content. Every context that works on spaces goes through it.
 */
export class SpaceAccess extends Effect.Service<SpaceAccess>()("@octavo/domain/SpaceAccess", {
  effect: Effect.gen(function*() {
    const collections = yield* CollectionRepository
    const spaces = yield* SpaceRepository
    const accessOrganization = yield* makeAccess

    const treeOf = (organizationId: OrganizationId) => Effect.map(collections.listAll(organizationId), indexCollections)

    /** A member's level on an item with its own default level, under `parentId`. */
    const levelOn = (member: Member, tree: CollectionIndex, own: DefaultLevel, parentId: CollectionId | null) =>
      effectiveLevel(member, defaultLevelsOf(tree, own, parentId))

    /** A parent named in input: a collection of the same organization, or invalid input. */
    const findParent = (organizationId: OrganizationId, tree: CollectionIndex, parentId: CollectionId, field: string) => {
      const parent = tree.get(parentId)
      return parent === undefined || parent.organizationId !== organizationId
        ? Effect.fail(new InvalidInput({ field, rule: `${parentId} is not a collection of this organization` }))
        : Effect.succeed(parent)
    }

    /**
     * Creating under a parent needs `create` there, or the organization role `create` at the top.
     * A parent the actor cannot see (a guest's) is refused as if it did not exist.
     */
    const requireCreateUnder = (access: Membership, tree: CollectionIndex, parentId: CollectionId | null) =>
      parentId === null
        ? requireRole(access.member, "create", "create content at the top of the organization")
        : Effect.flatMap(
          findParent(access.organization.id, tree, parentId, "parent"),
          (parent): Effect.Effect<void, InvalidInput | Forbidden> => {
            const level = levelOn(access.member, tree, parent.defaultLevel, parent.parentId)
            return level === null
              ? Effect.fail(new InvalidInput({ field: "parent", rule: `${parentId} is not a collection of this organization` }))
              : requireLevel(level, "create", "create content in this collection")
          }
        )

    /**
     * What the actor may see of an item read with its access: its organization's membership, the collection tree and
     * the actor's level, or undefined when it is hidden (no such item, not a member, no level, or `shown` says no).
     * Not a member reads as no such item, so that no one learns of another organization's objects.
     */
    const visible = <A extends { readonly defaultLevel: DefaultLevel; readonly parentId: CollectionId | null }>(
      found: Option.Option<ItemForAccess<A>>,
      shown: (item: A) => boolean
    ) => {
      if (Option.isNone(found) || Option.isNone(found.value.membership) || !shown(found.value.item)) return undefined
      const { item, membership } = found.value
      const tree = indexCollections(found.value.collections)
      const level = levelOn(membership.value.member, tree, item.defaultLevel, item.parentId)
      return level === null ? undefined : { access: membership.value, tree, item, level }
    }

    const collection = (collectionId: CollectionId) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        const seen = visible(yield* collections.findForAccess(collectionId, actor.id), () => true)
        // The error is made only on this path: it captures a stack trace, which a found collection should not pay for.
        if (seen === undefined) return yield* new NotFound({ entity: "collection", id: collectionId })
        const { item, ...grant } = seen
        return { ...grant, collection: item } satisfies CollectionGrant
      })

    /**
     * The actor's grant on a space read with its access (as `SpaceRepository.findForAccess` answers), or not found;
     * soft-deleted spaces are found only when `deleted` is allowed.
     */
    const spaceFrom = (
      spaceId: SpaceId,
      found: Option.Option<ItemForAccess<Space>>,
      options: { readonly deleted: boolean } = { deleted: false }
    ): Effect.Effect<Authorized<"read">, NotFound> => {
      const seen = visible(found, (space) => space.deletedAt === undefined || options.deleted)
      // The error is made only on this path.
      if (seen === undefined) return Effect.fail(new NotFound({ entity: "space", id: spaceId }))
      const { item, ...grant } = seen
      return Effect.succeed({ ...grant, space: item } as SpaceGrant as Authorized<"read">)
    }

    /** A space the actor can read; soft-deleted spaces are found only when `deleted` is allowed. */
    const space = (spaceId: SpaceId, options?: { readonly deleted: boolean }) =>
      Effect.flatMap(
        Actor,
        (actor) => Effect.flatMap(spaces.findForAccess(spaceId, actor.id), (found) => spaceFrom(spaceId, found, options))
      )

    /** Proves `required` on a space the actor can see, or refuses the action. */
    const require = <L extends Role>(grant: SpaceGrant, required: L, action: string) =>
      Effect.as(requireLevel(grant.level, required, action), grant as Authorized<L>)

    /** The space with the actor's proven level `required`: not found when hidden, forbidden below it. */
    const authorize = <L extends Role>(spaceId: SpaceId, required: L, action: string, options?: { readonly deleted: boolean }) =>
      Effect.flatMap(space(spaceId, options), (grant) => require(grant, required, action))

    /**
     * Inside a unit of work: waits for, then holds, the space's lock, so that changes to its
     * content take turns; answers the space read again under the lock (it may have moved on since
     * it was checked). A space deleted meanwhile is not found.
     */
    const lock = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        yield* spaces.lock(spaceId)
        const found = yield* spaces.findById(spaceId)
        if (Option.isNone(found) || found.value.deletedAt !== undefined) return yield* new NotFound({ entity: "space", id: spaceId })
        return found.value
      })

    /** `lock` for a change the actor makes to the content: it needs the proof of `edit`. */
    const lockForChange = (proof: Authorized<"edit">) => lock(proof.space.id)

    /**
     * The organization as the actor sees it (as `organization` answers) with its collections, in
     * one read: not a member reads as no such organization.
     */
    const organizationWithTree = (organizationId: OrganizationId) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        const found = yield* collections.listForMember(organizationId, actor.id)
        if (Option.isNone(found)) return yield* new NotFound({ entity: "organization", id: organizationId })
        return { access: found.value.membership, tree: indexCollections(found.value.collections) }
      })

    /** Every space of the organization the actor may read (soft-deleted ones left out); guests may not ask. */
    const readableSpaces = (organizationId: OrganizationId, action: string) =>
      Effect.gen(function*() {
        const { access, tree } = yield* organizationWithTree(organizationId)
        yield* requireNotGuest(access.member, action)
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

    return {
      organization: accessOrganization,
      organizationWithTree,
      treeOf,
      levelOn,
      findParent,
      requireCreateUnder,
      collection,
      space,
      spaceFrom,
      require,
      authorize,
      lock,
      lockForChange,
      readableSpaces
    } as const
  })
}) {}
