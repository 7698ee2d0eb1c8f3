import { Effect } from "effect"
import type { Membership } from "../organizations/Access.js"
import { NotFound } from "../shared/Errors.js"
import { type SiteId, SiteSpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { type Keyset, mapPage, pageInMemory, type PageRequest } from "../shared/Pagination.js"
import { now } from "../shared/Time.js"
import { AddSiteSpaceInput, type SiteSpacePosition, type SiteTree, UpdateSiteSpaceInput } from "./Site.js"
import { makeSiteWork } from "./SiteWork.js"
import * as Structure from "./Structure.js"
import { orderedSections, sectionView, type SitePage, type SiteSpaceView, siteSpaceView } from "./Views.js"

/**
 * A site's spaces, the site spaces' part of the API's `siteStructure` group; its sections and
 * section groups are `SiteSections`. Each change is one transition of `Structure` under the site's
 * lock (`makeSiteWork`'s `change`).
 */
export class SiteSpaces extends Effect.Service<SiteSpaces>()("@octavo/domain/SiteSpaces", {
  effect: Effect.gen(function*() {
    const { change, newId, readSite, reshape, spaceInput, viewAfter } = yield* makeSiteWork

    const listSiteSpaces = (
      siteId: SiteId,
      query: { readonly default?: boolean | undefined; readonly shareKey?: string | undefined },
      request: PageRequest
    ) =>
      Effect.gen(function*() {
        const { shown, view } = yield* readSite(siteId, query.shareKey)
        const all: Array<{ readonly view: SiteSpaceView; readonly key: string }> = []
        if (Structure.hasSections(shown.tree)) {
          for (const { key, section } of orderedSections(shown.tree)) {
            const sv = sectionView(shown, section)
            for (const s of sv.siteSpaces) all.push({ view: s, key: `${key}!${s.siteSpace.position}` })
          }
        } else {
          for (const s of Structure.siteSpacesIn(shown.tree, null)) all.push({ view: siteSpaceView(shown, s), key: s.position })
        }
        // In a sectioned site, "the default" is the default section's default.
        const siteDefault = (v: SiteSpaceView) =>
          v.default && (v.siteSpace.sectionId === null || v.siteSpace.sectionId === shown.tree.site.defaultSectionId)
        const chosen = query.default === undefined ? all : all.filter((x) => siteDefault(x.view) === query.default)
        const page = pageInMemory(chosen, (x): Keyset => [x.key, x.view.siteSpace.id], "asc", request)
        return { site: view, ...mapPage(page, (x) => x.view) } satisfies SitePage<SiteSpaceView>
      })

    /** The view of one site space of a tree just written. */
    const siteSpaceAfter = (access: Membership, tree: SiteTree, id: SiteSpaceId) =>
      Effect.gen(function*() {
        const { shown, view } = yield* viewAfter(access, tree)
        const siteSpace = shown.tree.siteSpaces.find((s) => s.id === id)
        if (siteSpace === undefined) return yield* new NotFound({ entity: "site space", id })
        return { site: view, siteSpace: siteSpaceView(shown, siteSpace) }
      })

    const addSiteSpace = (siteId: SiteId, input: AddSiteSpaceInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(AddSiteSpaceInput)(input)
        const at = yield* now
        const id = SiteSpaceId.make(yield* newId)
        const { access, tree } = yield* change(siteId, "structure", "add a space to this site", (tree) =>
          Effect.gen(function*() {
            const space = yield* spaceInput(tree.site.organizationId, valid.spaceId, "spaceId")
            const added = yield* Structure.addSiteSpace(tree, {
              id,
              spaceId: space.id,
              spaceTitle: space.title,
              sectionId: valid.sectionId,
              at
            })
            return { tree: added.tree, result: undefined }
          }))
        return yield* siteSpaceAfter(access, tree, id)
      })

    const updateSiteSpace = (siteId: SiteId, id: SiteSpaceId, input: UpdateSiteSpaceInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateSiteSpaceInput)(input)
        const { access, tree } = yield* reshape(siteId, "change this site's spaces", (tree) => Structure.updateSiteSpace(tree, id, valid))
        return yield* siteSpaceAfter(access, tree, id)
      })

    const moveSiteSpace = (siteId: SiteId, id: SiteSpaceId, position: SiteSpacePosition | undefined) =>
      Effect.gen(function*() {
        const { access, tree } = yield* reshape(siteId, "move this site's spaces", (tree) => Structure.moveSiteSpace(tree, id, position))
        return yield* siteSpaceAfter(access, tree, id)
      })

    const removeSiteSpace = (siteId: SiteId, id: SiteSpaceId) =>
      Effect.asVoid(reshape(siteId, "remove this site's spaces", (tree) => Structure.removeSiteSpace(tree, id)))

    return {
      listSiteSpaces,
      addSiteSpace,
      updateSiteSpace,
      moveSiteSpace,
      removeSiteSpace
    } as const
  })
}) {}
