import { Effect } from "effect"
import type { Member } from "../organizations/Organization.js"
import { type CollectionId, type OrganizationId, RevisionId, type SpaceId } from "../shared/Ids.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { type CollectionPermissions, collectionPermissions } from "./ContentPolicy.js"
import { RevisionRepository, SiblingRepository } from "./Ports.js"
import type { Collection, Revision, Space } from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"
import type { CollectionIndex } from "./Tree.js"

export interface CollectionView {
  readonly collection: Collection
  readonly permissions: CollectionPermissions
}

/** A space's visibility under `parentId`: "in-collection" only means something inside a collection. */
export const visibilityUnder = (parentId: CollectionId | null, visibility: Space["visibility"]): Space["visibility"] =>
  parentId === null && visibility === "in-collection" ? "private" : visibility

/**
 * What the spaces context's services share: the items an item is placed among, a new space's first
 * revision, and a collection's view for a member.
 */
export const makeSpaceWork = Effect.gen(function*() {
  const siblings = yield* SiblingRepository
  const revisions = yield* RevisionRepository
  const secrets = yield* Secrets
  const guard = yield* SpaceAccess
  const newId = secrets.newId

  /** The children of `parentId`, but for the item `id` (the one being placed among them). */
  const childrenWithout = (organizationId: OrganizationId, parentId: CollectionId | null, id: string) =>
    Effect.map(siblings.childrenOf(organizationId, parentId), (all) => all.filter((s) => s.id !== id))

  const firstRevision = (spaceId: SpaceId, parents: ReadonlyArray<RevisionId>) =>
    Effect.gen(function*() {
      const revision: Revision = { id: RevisionId.make(yield* newId), spaceId, parents, type: "edits", createdAt: yield* now }
      yield* revisions.insert(revision)
      return revision
    })

  const collectionView = (member: Member, tree: CollectionIndex, collection: Collection): CollectionView => ({
    collection,
    permissions: collectionPermissions(guard.levelOn(member, tree, collection.defaultLevel, collection.parentId))
  })

  return { childrenWithout, firstRevision, collectionView, newId } as const
})
