import { Context, Effect, Layer } from "effect"
import type { OrganizationId, SiteId } from "../shared/Ids.js"
import { type FactRows, SpaceFactRows, SpaceFactShows } from "../spaces/Facts.js"
import { CollectionRepository, SpaceRepository } from "../spaces/Ports.js"
import { SiteReads, SiteStructureRepository, type SiteTreeRead, SiteTreeReads } from "./Ports.js"

// The reads of the sites context that take the rows of earlier contexts with its own: each a port a storage may
// answer in one round trip, and its answer over the repositories, one read after the other.

/** A site's tree as the storage holds it, with the rows of every space fact (`SpaceFactRows`) of the spaces it is on. */
export interface SiteTreeRows extends Omit<SiteTreeRead, "facts"> {
  readonly facts: FactRows
}

/**
 * Reads a site's `SiteTreeRows`. A storage that can read them in one round trip answers it so (a read of a site then
 * costs one statement more than its access); the others answer it with `SiteTreeRowReadsOneByOne`.
 */
export class SiteTreeRowReads extends Context.Tag("@octavo/domain/SiteTreeRowReads")<SiteTreeRowReads, {
  readonly tree: (siteId: SiteId, organizationId: OrganizationId) => Effect.Effect<SiteTreeRows>
}>() {}

/** `SiteTreeRowReads` over the sites', spaces' and collections' repositories and `SpaceFactRows`, one read after the other. */
export const SiteTreeRowReadsOneByOne = Layer.effect(
  SiteTreeRowReads,
  Effect.gen(function*() {
    const structures = yield* SiteStructureRepository
    const spaces = yield* SpaceRepository
    const collections = yield* CollectionRepository
    const facts = yield* SpaceFactRows
    return SiteTreeRowReads.of({
      tree: (siteId, organizationId) =>
        Effect.gen(function*() {
          const structure = yield* structures.load(siteId)
          const onSpaces = [...new Set(structure.siteSpaces.map((s) => s.spaceId))]
          return {
            structure,
            spaces: yield* spaces.findMany(onSpaces),
            collections: yield* collections.listAll(organizationId),
            facts: yield* facts.of(onSpaces)
          }
        })
    })
  })
)

/** The sites context's `SiteTreeReads`, over the rows read at once, with what the spaces show by their facts' rules. */
export const SiteTreeReadsLive = Layer.effect(
  SiteTreeReads,
  Effect.gen(function*() {
    const reads = yield* SiteTreeRowReads
    const shows = yield* SpaceFactShows
    return SiteTreeReads.of({
      tree: (site, organization, shareKey) =>
        Effect.gen(function*() {
          const rows = yield* reads.tree(site.id, organization.id)
          const facts = yield* shows.show(rows.facts, { organization, spaceIds: rows.spaces.map((s) => s.id), shareKey })
          return { ...rows, facts }
        })
    })
  })
)

/** `SiteReads` over the sites' and the spaces' repositories, one read after the other. */
export const SiteReadsOneByOne = Layer.effect(
  SiteReads,
  Effect.gen(function*() {
    const structures = yield* SiteStructureRepository
    const spaces = yield* SpaceRepository
    return SiteReads.of({
      spacesOf: (siteIds) =>
        Effect.flatMap(
          structures.spacesOf(siteIds),
          (held) => Effect.map(spaces.findMany([...new Set(held.map((h) => h.spaceId))]), (found) => ({ held, spaces: found }))
        )
    })
  })
)
