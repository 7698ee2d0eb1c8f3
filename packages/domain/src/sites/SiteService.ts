import { Effect, Option } from "effect"
import { validate } from "../shared/Limits.js"
import { type OrganizationId, SiteId, SiteSpaceId, type SpaceId } from "../shared/Ids.js"
import { mapPage, type PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceRepository } from "../spaces/Ports.js"
import type { Space } from "../spaces/Space.js"
import { Spaces } from "../spaces/SpaceService.js"
import { requireSiteRole } from "./Policy.js"
import { SiteReads, SiteRepository } from "./Ports.js"
import { showsSpace } from "./Reading.js"
import {
  CreateSiteInput,
  type Site,
  type SiteListFilter,
  SiteListFilter as SiteListFilterSchema,
  type SiteTree,
  UpdateSiteInput
} from "./Site.js"
import { inOrganization, makeSiteWork, SIGNING_SECRET_BYTES } from "./SiteWork.js"
import * as Structure from "./Structure.js"
import { siteView } from "./Views.js"

const isSpaceIds = (spaces: CreateSiteInput["spaces"]): spaces is ReadonlyArray<SpaceId> => Array.isArray(spaces)

/**
 * Sites (conventions-2.md §1), the API's `sites` group: creating, listing, reading, changing,
 * publishing and deleting a site. Its spaces, sections, share links and publishing settings are
 * `SiteSpaces`, `SiteSections`, `ShareLinks` and `SitePublishing`.
 */
export class Sites extends Effect.Service<Sites>()("@octavo/domain/Sites", {
  effect: Effect.gen(function*() {
    const sites = yield* SiteRepository
    const siteReads = yield* SiteReads
    const spaces = yield* SpaceRepository
    const spaceService = yield* Spaces
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const { authorized, change, commit, newId, organization, readSite, spaceInput, viewAfter, visible } = yield* makeSiteWork

    /** The site a path names: not found unless it is a site the actor may see, in that organization. */
    const locate = (organizationId: OrganizationId, siteId: SiteId) => Effect.asVoid(inOrganization(organizationId)(visible(siteId)))

    const create = (organizationId: OrganizationId, input: CreateSiteInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateSiteInput)(input)
        const access = yield* organization(organizationId)
        yield* requireSiteRole(access.member, "structure", "create a site")
        const at = yield* now
        const title = valid.title?.trim() ?? "Untitled site"
        return yield* uow.transaction(Effect.gen(function*() {
          const site: Site = {
            id: SiteId.make(yield* newId),
            organizationId,
            type: valid.type ?? "basic",
            title,
            visibility: valid.visibility ?? "public",
            published: false,
            basename: null,
            proxy: null,
            adaptiveContent: false,
            defaultSiteSpaceId: null,
            defaultSectionId: null,
            publishingAuth: { privateKey: yield* secrets.newSecret(SIGNING_SECRET_BYTES), fallbackURL: null, logoutURL: null },
            adaptiveSchema: null,
            createdAt: at,
            updatedAt: at
          }
          yield* sites.insert(site)
          const given = valid.spaces
          const added: Array<Space> = []
          if (isSpaceIds(given)) {
            for (const [i, spaceId] of given.entries()) {
              added.push(yield* spaceInput(organizationId, spaceId, `spaces.${i}`))
            }
          } else if (given !== undefined) {
            const made = yield* spaceService.create(organizationId, {
              title: given.title ?? title.slice(0, 50),
              ...(given.emoji !== undefined ? { emoji: given.emoji } : {}),
              ...(given.parent !== undefined ? { parent: given.parent } : {})
            })
            added.push(made.space)
          }
          const empty: SiteTree = { site, sections: [], groups: [], siteSpaces: [] }
          let tree = empty
          for (const space of added) {
            const next = yield* Structure.addSiteSpace(tree, {
              id: SiteSpaceId.make(yield* newId),
              spaceId: space.id,
              spaceTitle: space.title,
              at
            })
            tree = next.tree
          }
          yield* commit(empty, tree)
          return siteView(access, tree.site, tree.siteSpaces.length)
        }))
      })

    const list = (organizationId: OrganizationId, filter: SiteListFilter, request: PageRequest) =>
      Effect.gen(function*() {
        const valid = yield* validate(SiteListFilterSchema)(filter)
        const access = yield* organization(organizationId)
        // A space the organization's sites do not show (soft-deleted, transferred) holds no site.
        if (valid.space !== undefined) {
          const space = yield* spaces.findById(valid.space)
          if (!Option.exists(space, (s) => showsSpace(organizationId, s))) return { items: [], count: 0, next: Option.none() }
        }
        const page = yield* sites.list(organizationId, {
          spaceId: valid.space,
          title: valid.title,
          published: valid.published,
          types: valid.types
        }, request)
        const { held, spaces: onSpaces } = yield* siteReads.spacesOf(page.items.map((s) => s.id))
        const live = new Set(onSpaces.filter((s) => showsSpace(organizationId, s)).map((s) => s.id as string))
        const counts = new Map<string, number>()
        for (const h of held) if (live.has(h.spaceId)) counts.set(h.siteId, (counts.get(h.siteId) ?? 0) + 1)
        return mapPage(page, (site) => siteView(access, site, counts.get(site.id) ?? 0))
      })

    const get = (siteId: SiteId, shareKey?: string) => Effect.map(readSite(siteId, shareKey), ({ view }) => view)

    const update = (siteId: SiteId, input: UpdateSiteInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateSiteInput)(input)
        const at = yield* now
        const { access, tree } = yield* change(siteId, "admin", "change this site", (tree) =>
          Effect.gen(function*() {
            let next: SiteTree = {
              ...tree,
              site: {
                ...tree.site,
                title: valid.title?.trim() ?? tree.site.title,
                visibility: valid.visibility ?? tree.site.visibility,
                basename: valid.basename === undefined ? tree.site.basename : valid.basename,
                proxy: valid.proxy === undefined ? tree.site.proxy : valid.proxy === null ? null : valid.proxy.toLowerCase(),
                adaptiveContent: valid.adaptiveContent?.enabled ?? tree.site.adaptiveContent,
                updatedAt: at
              }
            }
            if (valid.defaultSiteSection !== undefined) next = yield* Structure.setDefaultSection(next, valid.defaultSiteSection)
            if (valid.defaultSiteSpace !== undefined) next = yield* Structure.setSiteDefaultSiteSpace(next, valid.defaultSiteSpace)
            return { tree: next, result: undefined }
          }))
        return (yield* viewAfter(access, tree)).view
      })

    const remove = (siteId: SiteId) =>
      uow.transaction(Effect.gen(function*() {
        yield* authorized(siteId, "admin", "delete this site")
        yield* sites.lock(siteId)
        yield* sites.remove(siteId)
      }))

    const setPublished = (siteId: SiteId, published: boolean) =>
      Effect.gen(function*() {
        const at = yield* now
        const { access, tree } = yield* change(siteId, "structure", published ? "publish this site" : "unpublish this site", (tree) =>
          Effect.succeed({
            tree: tree.site.published === published ? tree : { ...tree, site: { ...tree.site, published, updatedAt: at } },
            result: undefined
          }))
        return (yield* viewAfter(access, tree)).view
      })

    return {
      locate,
      create,
      list,
      get,
      update,
      remove,
      publish: (siteId: SiteId) => setPublished(siteId, true),
      unpublish: (siteId: SiteId) => setPublished(siteId, false)
    } as const
  })
}) {}
