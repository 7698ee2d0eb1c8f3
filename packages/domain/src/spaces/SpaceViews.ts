import { Effect } from "effect"
import type { Member } from "../organizations/Organization.js"
import type { SpaceId } from "../shared/Ids.js"
import { type SpacePermissions, spacePermissions } from "./ContentPolicy.js"
import {
  type PublishedPlace,
  type SpaceCounts,
  SpaceCounters,
  SpaceGitSync,
  type SpaceGitSyncInfo,
  SpacePublications
} from "./Ports.js"
import type { Space } from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"
import type { CollectionIndex } from "./Tree.js"

/** A space with what the caller may do in it, and its counters. */
export interface SpaceView {
  readonly space: Space
  readonly permissions: SpacePermissions
  readonly counts: SpaceCounts
  /** Where it is published, while a published site shows it. */
  readonly published: PublishedPlace | undefined
  /** Its Git Sync, once an operation or a `gitInfo` was recorded. */
  readonly gitSync: SpaceGitSyncInfo | undefined
}

const noCounts: SpaceCounts = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 }

/** Spaces as a member sees them: permissions from the content rules, counters from the contexts that keep them. */
export class SpaceViews extends Effect.Service<SpaceViews>()("@octavo/domain/SpaceViews", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const counters = yield* SpaceCounters
    const publications = yield* SpacePublications
    const gitSyncs = yield* SpaceGitSync

    const viewOf = (
      member: Member,
      tree: CollectionIndex,
      space: Space,
      counts: ReadonlyMap<SpaceId, Partial<SpaceCounts>>,
      places: ReadonlyMap<SpaceId, PublishedPlace>,
      synced: ReadonlyMap<SpaceId, SpaceGitSyncInfo>
    ): SpaceView => ({
      space,
      permissions: spacePermissions(guard.levelOn(member, tree, space.defaultLevel, space.parentId)),
      counts: { ...noCounts, ...counts.get(space.id) },
      published: places.get(space.id),
      gitSync: synced.get(space.id)
    })

    /** The views of spaces, their counters counted, their published places and Git Syncs found in one go. */
    const of = (member: Member, tree: CollectionIndex, spaces: ReadonlyArray<Space>, shareKey?: string) =>
      Effect.gen(function*() {
        const ids = spaces.map((s) => s.id)
        const counts = yield* counters.countsFor(ids)
        const organizationId = spaces[0]?.organizationId
        const places = organizationId === undefined ? new Map() : yield* publications.placesOf(organizationId, ids, shareKey)
        const synced = yield* gitSyncs.of(ids)
        return spaces.map((s) => viewOf(member, tree, s, counts, places, synced))
      })

    const one = (member: Member, tree: CollectionIndex, space: Space, shareKey?: string) =>
      Effect.map(of(member, tree, [space], shareKey), (views) => views[0] as SpaceView)

    return { of, one } as const
  })
}) {}
