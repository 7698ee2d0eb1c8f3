import { Effect, Layer, Option } from "effect"
import { ContentLifecycle } from "../content/ForSpaces.js"
import type { SiteId, SpaceId } from "../shared/Ids.js"
import type { SpaceFact, SpacesAsked } from "../spaces/Facts.js"
import { SpaceContentLifecycle, SpaceRepository } from "../spaces/Ports.js"
import type { Space } from "../spaces/Space.js"
import { commitTree } from "./Commit.js"
import { ShareLinkRepository, SiteRepository, SiteStructureRepository } from "./Ports.js"
import { openingKey, shownTree, showsSpace, siteSpaceSegments } from "./Reading.js"
import type { Site, SiteTree } from "./Site.js"
import { dropSpace } from "./Structure.js"

/**
 * What a space's coming and going does to sites, over what it does to content: a purged space's
 * site spaces leave every site that held them (defaults promoted). A soft-deleted one only hides
 * them, which reads decide.
 */
export const SiteSpaceLifecycle = Layer.effect(
  SpaceContentLifecycle,
  Effect.gen(function*() {
    const content = yield* SpaceContentLifecycle
    const sites = yield* SiteRepository
    const structures = yield* SiteStructureRepository
    const dropFromSites = (spaceId: Parameters<typeof content.purged>[0]) =>
      Effect.gen(function*() {
        for (const siteId of yield* sites.holding(spaceId)) {
          yield* sites.lock(siteId)
          const site = yield* sites.findById(siteId)
          if (Option.isNone(site)) continue
          const before = { site: site.value, ...(yield* structures.load(siteId)) }
          // Only the default pointers change on the site: no basename or proxy conflict can arise.
          yield* Effect.orDie(commitTree(before, dropSpace(before, spaceId)))
        }
      }).pipe(Effect.provideService(SiteRepository, sites), Effect.provideService(SiteStructureRepository, structures))
    return SpaceContentLifecycle.of({
      ...content,
      purged: (spaceId) => Effect.zipRight(content.purged(spaceId), dropFromSites(spaceId))
    })
  })
).pipe(Layer.provide(ContentLifecycle))

/** Where a space is published: a site's address, the path of its site space there, and the share key that opens it. */
export interface PublishedPlace {
  /** The site's proxy (host and path, no scheme), when it has one. */
  readonly proxy: string | null
  /** The organization's hostname, else its id. */
  readonly organization: string
  /** The site's basename, else its id. */
  readonly site: string
  /** The segments after the site's address. */
  readonly path: ReadonlyArray<string>
  /** The share key the read was made with, when it opens that site. */
  readonly shareKey: string | undefined
}

/** What sites hold of some spaces, as the sites' storage keeps it: what their published places are found from. */
export interface SitesOfSpaces {
  /** The site spaces on any of the spaces, as (site, space) pairs (as `SiteStructureRepository.onSpaces` answers). */
  readonly siteSpaces: ReadonlyArray<{ readonly siteId: SiteId; readonly spaceId: SpaceId }>
  /** The sites of those site spaces, as `SiteRepository.findById` answers each. */
  readonly sites: ReadonlyArray<Site>
  /** Everything under each of those sites, as `SiteStructureRepository.load` answers, by site. */
  readonly structures: ReadonlyMap<SiteId, Omit<SiteTree, "site">>
  /** The spaces that any site space of those sites is on, as `SpaceRepository.findMany` answers. */
  readonly structureSpaces: ReadonlyArray<Space>
}

/** `SitesOfSpaces` for `spaceIds`, read through the sites' and spaces' repositories one after the other. */
export const readSitesOfSpaces = Effect.gen(function*() {
  const sites = yield* SiteRepository
  const structures = yield* SiteStructureRepository
  const spaces = yield* SpaceRepository
  return (spaceIds: ReadonlyArray<SpaceId>): Effect.Effect<SitesOfSpaces> =>
    Effect.gen(function*() {
      const siteSpaces = yield* structures.onSpaces(spaceIds)
      const found = yield* Effect.forEach([...new Set(siteSpaces.map((h) => h.siteId))], (id: SiteId) => sites.findById(id))
      const held = found.flatMap((site) => Option.toArray(site))
      const loaded = new Map<SiteId, Omit<SiteTree, "site">>()
      for (const site of held) loaded.set(site.id, yield* structures.load(site.id))
      const onSpaces = [...new Set([...loaded.values()].flatMap((tree) => tree.siteSpaces.map((s) => s.spaceId)))]
      return { siteSpaces, sites: held, structures: loaded, structureSpaces: yield* spaces.findMany(onSpaces) }
    })
})

/**
 * Where spaces are published (conventions-2.md §1, "published gates the urls.published of …
 * Space"): the site space of each space in the first published site, by creation, that shows it,
 * from what sites hold of those spaces. Only a read made with a share key reads more: the active
 * share links of the sites.
 */
const makePublishedPlaces = Effect.gen(function*() {
  const shareLinks = yield* ShareLinkRepository
  return (held: SitesOfSpaces, { organization, shareKey, spaceIds }: SpacesAsked) =>
    Effect.gen(function*() {
      const places = new Map<SpaceId, PublishedPlace>()
      const asked = new Set<string>(spaceIds)
      const published = held.sites
        .filter((site) => site.published && site.organizationId === organization.id)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      if (published.length === 0) return places
      const shown = new Set(held.structureSpaces.filter((sp) => showsSpace(organization.id, sp)).map((sp) => sp.id as string))
      for (const site of published) {
        const tree: SiteTree = { site, ...(held.structures.get(site.id) ?? { sections: [], groups: [], siteSpaces: [] }) }
        const visible = shownTree(tree, (id) => shown.has(id))
        const key = openingKey(site, shareKey, shareKey === undefined ? [] : yield* shareLinks.active(site.id))
        for (const siteSpace of visible.tree.siteSpaces) {
          if (places.has(siteSpace.spaceId) || !asked.has(siteSpace.spaceId)) continue
          places.set(siteSpace.spaceId, {
            proxy: site.proxy,
            organization: organization.hostname ?? organization.id,
            site: site.basename ?? site.id,
            path: siteSpaceSegments(visible, siteSpace),
            shareKey: key
          })
        }
      }
      return places
    })
})

/** Where a space is published, on views of spaces: its place in the first published site that shows it. */
export const PublishedPlaceFact: SpaceFact<
  SitesOfSpaces,
  PublishedPlace,
  SiteRepository | SiteStructureRepository | SpaceRepository,
  ShareLinkRepository
> = { key: "sites", read: readSitesOfSpaces, show: makePublishedPlaces }
