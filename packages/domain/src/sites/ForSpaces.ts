import { Effect, Layer, Option } from "effect"
import { ContentLifecycle } from "../content/ForSpaces.js"
import { SpaceContentLifecycle } from "../spaces/Ports.js"
import { commitTree } from "./Commit.js"
import { SiteRepository, SiteStructureRepository } from "./Ports.js"
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
