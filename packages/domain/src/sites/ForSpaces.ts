import { Effect, Layer, Option } from "effect"
import { ContentLifecycle } from "../content/ForSpaces.js"
import { OrganizationRepository } from "../organizations/Ports.js"
import type { SiteId, SpaceId } from "../shared/Ids.js"
import { type PublishedPlace, SpaceContentLifecycle, SpacePublications, SpaceRepository } from "../spaces/Ports.js"
import { commitTree } from "./Commit.js"
import { ShareLinkRepository, SiteRepository, SiteStructureRepository } from "./Ports.js"
import { openingKey, shownTree, showsSpace, siteSpaceSegments } from "./Reading.js"
import type { Site } from "./Site.js"
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

/**
 * Where spaces are published (conventions-2.md §1, "published gates the urls.published of …
 * Space"): the site space of each space in the first published site, by creation, that shows it.
 */
export const SitePublications = Layer.effect(
  SpacePublications,
  Effect.gen(function*() {
    const sites = yield* SiteRepository
    const structures = yield* SiteStructureRepository
    const shareLinks = yield* ShareLinkRepository
    const spaces = yield* SpaceRepository
    const organizations = yield* OrganizationRepository
    return SpacePublications.of({
      placesOf: (organizationId, spaceIds, shareKey) =>
        Effect.gen(function*() {
          const places = new Map<SpaceId, PublishedPlace>()
          const asked = new Set<string>(spaceIds)
          const held = yield* structures.onSpaces(spaceIds)
          if (held.length === 0) return places
          const found = yield* Effect.forEach([...new Set(held.map((h) => h.siteId))], (id: SiteId) => sites.findById(id))
          const published = found
            .flatMap((
              s
            ): Array<Site> => (Option.isSome(s) && s.value.published && s.value.organizationId === organizationId ? [s.value] : []))
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
          if (published.length === 0) return places
          const hostname = Option.flatMap(yield* organizations.findById(organizationId), (o) => Option.fromNullable(o.hostname))
          const trees = []
          for (const site of published) trees.push({ site, ...(yield* structures.load(site.id)) })
          const shown = new Set(
            (yield* spaces.findMany([...new Set(trees.flatMap((t) => t.siteSpaces.map((s) => s.spaceId)))]))
              .filter((sp) => showsSpace(organizationId, sp))
              .map((sp) => sp.id as string)
          )
          for (const tree of trees) {
            const site = tree.site
            const visible = shownTree(tree, (id) => shown.has(id))
            const key = openingKey(site, shareKey, shareKey === undefined ? [] : yield* shareLinks.active(site.id))
            for (const siteSpace of visible.tree.siteSpaces) {
              if (places.has(siteSpace.spaceId) || !asked.has(siteSpace.spaceId)) continue
              places.set(siteSpace.spaceId, {
                proxy: site.proxy,
                organization: Option.getOrElse(hostname, () => organizationId),
                site: site.basename ?? site.id,
                path: siteSpaceSegments(visible, siteSpace),
                shareKey: key
              })
            }
          }
          return places
        })
    })
  })
)
