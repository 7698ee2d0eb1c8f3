import { Effect } from "effect"
import type { Membership } from "../organizations/Access.js"
import type { Member } from "../organizations/Organization.js"
import { type SpacePermissions, spacePermissions } from "./ContentPolicy.js"
import { type PublishedPlace, type SpaceCounts, type SpaceFacts, type SpaceGitSyncInfo, SpaceViewFacts } from "./Ports.js"
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
    const facts = yield* SpaceViewFacts

    const viewOf = (member: Member, tree: CollectionIndex, space: Space, found: SpaceFacts): SpaceView => ({
      space,
      permissions: spacePermissions(guard.levelOn(member, tree, space.defaultLevel, space.parentId)),
      counts: { ...noCounts, ...found.counts.get(space.id) },
      published: found.places.get(space.id),
      gitSync: found.gitSync.get(space.id)
    })

    /** The views of spaces of the organization `access` is to: their counters, published places and Git Syncs found in one go. */
    const of = (
      access: Membership,
      tree: CollectionIndex,
      spaces: ReadonlyArray<Space>,
      shareKey?: string
    ): Effect.Effect<Array<SpaceView>> => {
      if (spaces.length === 0) return Effect.succeed([])
      return Effect.map(
        facts.of(access.organization, spaces.map((s) => s.id), shareKey),
        (found) => spaces.map((s) => viewOf(access.member, tree, s, found))
      )
    }

    /** The views of spaces of the organization `access` is to, with their facts read already. */
    const withFacts = (access: Membership, tree: CollectionIndex, spaces: ReadonlyArray<Space>, found: SpaceFacts): Array<SpaceView> =>
      spaces.map((s) => viewOf(access.member, tree, s, found))

    const one = (access: Membership, tree: CollectionIndex, space: Space, shareKey?: string) =>
      Effect.map(of(access, tree, [space], shareKey), (views) => views[0] as SpaceView)

    return { of, withFacts, one } as const
  })
}) {}
