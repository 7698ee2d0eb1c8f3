import { Effect } from "effect"
import type { Membership } from "../organizations/Access.js"
import type { Member } from "../organizations/Organization.js"
import { type SpacePermissions, spacePermissions } from "./ContentPolicy.js"
import { SpaceFactRows, SpaceFacts, SpaceFactShows } from "./Facts.js"
import type { Space } from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"
import type { CollectionIndex } from "./Tree.js"

/** A space with what the caller may do in it, and what later contexts show of it. */
export interface SpaceView {
  readonly space: Space
  readonly permissions: SpacePermissions
  /** What later contexts show of the spaces of this view (their counters, published places, Git Syncs), by fact. */
  readonly facts: SpaceFacts
}

/** Spaces as a member sees them: permissions from the content rules, the facts of the contexts that keep them. */
export class SpaceViews extends Effect.Service<SpaceViews>()("@octavo/domain/SpaceViews", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const rows = yield* SpaceFactRows
    const shows = yield* SpaceFactShows

    const viewOf = (member: Member, tree: CollectionIndex, space: Space, facts: SpaceFacts): SpaceView => ({
      space,
      permissions: spacePermissions(guard.levelOn(member, tree, space.defaultLevel, space.parentId)),
      facts
    })

    /** The views of spaces of the organization `access` is to, with their facts read already. */
    const withFacts = (access: Membership, tree: CollectionIndex, spaces: ReadonlyArray<Space>, facts: SpaceFacts): Array<SpaceView> =>
      spaces.map((s) => viewOf(access.member, tree, s, facts))

    /** The views of spaces of the organization `access` is to: what later contexts show of them read in one go. */
    const of = (
      access: Membership,
      tree: CollectionIndex,
      spaces: ReadonlyArray<Space>,
      shareKey?: string
    ): Effect.Effect<Array<SpaceView>> => {
      if (spaces.length === 0) return Effect.succeed([])
      const spaceIds = spaces.map((s) => s.id)
      return rows.of(spaceIds).pipe(
        Effect.flatMap((read) => shows.show(read, { organization: access.organization, spaceIds, shareKey })),
        Effect.map((facts) => withFacts(access, tree, spaces, facts))
      )
    }

    const one = (access: Membership, tree: CollectionIndex, space: Space, shareKey?: string) =>
      Effect.map(of(access, tree, [space], shareKey), (views) => views[0] as SpaceView)

    return { of, withFacts, one } as const
  })
}) {}
