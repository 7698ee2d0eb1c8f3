import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  type DomainError,
  groupListKey,
  inOrganization,
  type ListKey,
  type OrganizationId,
  type PageRequest,
  sectionListKey,
  shareLinkListKey,
  type SiteId,
  siteRedirectListKey,
  SiteRedirects,
  siteListKey,
  ShareLinks,
  type SitePage,
  SitePublishing,
  Sites,
  SiteSections,
  siteSpaceListKey,
  SiteSpaces,
  type SiteView
} from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { created, createdAs, type ListQuery, listOf, pageOf, PublicUrl } from "../shared/Handlers.js"
import { SpaceWireFields } from "../spaces/Present.js"
import { sitePresenters } from "./Present.js"
import { ShareLinksApi } from "./ShareLinksApi.js"
import { SiteRedirectsApi } from "./SiteRedirectsApi.js"
import { SitesApi } from "./SitesApi.js"
import { SiteStructureApi } from "./SiteStructureApi.js"

interface SitePathParams {
  readonly organizationId: OrganizationId
  readonly siteId: SiteId
}

/** A list of items under a site, each presented in that site. */
const sitePageOf = <A, B, E extends DomainError, R>(
  key: ListKey,
  query: ListQuery,
  fetch: (request: PageRequest) => Effect.Effect<SitePage<A>, E, R>,
  present: (site: SiteView) => (item: A) => B
) => Effect.map(pageOf(key, query, fetch), ({ next, page }) => ({ items: page.items.map(present(page.site)), count: page.count, ...next }))

/** What the handlers of each group share. */
const make = Effect.gen(function*() {
  const present = sitePresenters(yield* PublicUrl, yield* SpaceWireFields)
  /**
   * A site is named under its organization: under another one it does not exist. The use case's own
   * read of the site decides it (`inOrganization`), with no read of its own.
   */
  const owned = (path: SitePathParams) => inOrganization(path.organizationId)
  /** A use case on the site of the path, in the path's organization. */
  const onSite = <A, E extends DomainError, R>(path: SitePathParams, effect: Effect.Effect<A, E, R>) => domain(owned(path)(effect))
  return { present, owned, onSite }
})

export const SitesLive = HttpApiBuilder.group(
  OctavoBase.add(SitesApi),
  "sites",
  (handlers) =>
    Effect.gen(function*() {
      const { onSite, present } = yield* make
      const sites = yield* Sites
      const publishing = yield* SitePublishing
      return handlers
        .handle("list", ({ path, urlParams: { published, space, title, type, ...page } }) => {
          const filter = { space, title, published, types: type }
          return listOf(
            siteListKey(path.organizationId, filter),
            page,
            (request) => sites.list(path.organizationId, filter, request),
            present.presentSite
          )
        })
        .handle("create", ({ path, payload }) =>
          domain(sites.create(path.organizationId, payload)).pipe(Effect.flatMap(createdAs(present.presentSite))))
        .handle("get", ({ path }) =>
          onSite(path, sites.get(path.siteId)).pipe(Effect.map(present.presentSite)))
        .handle("update", ({ path, payload }) => onSite(path, sites.update(path.siteId, payload)).pipe(Effect.map(present.presentSite)))
        .handle("remove", ({ path }) => onSite(path, sites.remove(path.siteId)))
        .handle("publish", ({ path }) => onSite(path, sites.publish(path.siteId)).pipe(Effect.map(present.presentSite)))
        .handle("unpublish", ({ path }) => onSite(path, sites.unpublish(path.siteId)).pipe(Effect.map(present.presentSite)))
        .handle("getAdaptiveSchema", ({ path }) =>
          onSite(path, publishing.adaptiveSchema(path.siteId)).pipe(Effect.map(present.presentAdaptiveSchema)))
        .handle("setAdaptiveSchema", ({ path, payload }) =>
          onSite(path, publishing.setAdaptiveSchema(path.siteId, payload)).pipe(Effect.map(present.presentAdaptiveSchema)))
        .handle("getPublished", ({ path, urlParams }) =>
          onSite(path, publishing.published(path.siteId, urlParams.shareKey)).pipe(Effect.map(present.presentPublished)))
        .handle("getStructure", ({ path, urlParams }) =>
          onSite(path, publishing.published(path.siteId, urlParams.shareKey)).pipe(
            Effect.map(({ site, structure }) =>
              present.presentStructure(site, structure)
            )
          ))
        .handle("getPublishingAuth", ({ path }) =>
          onSite(path, publishing.publishingAuth(path.siteId)).pipe(Effect.map(present.presentPublishingAuth)))
        .handle("updatePublishingAuth", ({ path, payload }) =>
          onSite(path, publishing.updatePublishingAuth(path.siteId, payload)).pipe(Effect.map(present.presentPublishingAuth)))
        .handle("regeneratePublishingAuth", ({ path }) =>
          onSite(path, publishing.regeneratePublishingAuth(path.siteId)).pipe(Effect.map(present.presentPublishingAuth)))
    })
)

export const SiteStructureLive = HttpApiBuilder.group(
  OctavoBase.add(SiteStructureApi),
  "siteStructure",
  (handlers) =>
    Effect.gen(function*() {
      const { onSite, owned, present } = yield* make
      const siteSpaces = yield* SiteSpaces
      const sections = yield* SiteSections
      const { locations } = present
      return handlers
        .handle("listSiteSpaces", ({ path, urlParams: { default: dflt, shareKey, ...page } }) =>
          sitePageOf(
            siteSpaceListKey(path.siteId, dflt),
            page,
            (request) => owned(path)(siteSpaces.listSiteSpaces(path.siteId, { default: dflt, shareKey }, request)),
            present.presentSiteSpace
          ))
        .handle("addSiteSpace", ({ path, payload }) =>
          onSite(path, siteSpaces.addSiteSpace(path.siteId, payload)).pipe(
            Effect.flatMap(({ site, siteSpace }) =>
              created(locations.siteSpace(site, siteSpace.siteSpace.id), present.presentSiteSpace(site)(siteSpace))
            )
          ))
        .handle("updateSiteSpace", ({ path, payload }) =>
          onSite(path, siteSpaces.updateSiteSpace(path.siteId, path.siteSpaceId, payload)).pipe(
            Effect.map(({ site, siteSpace }) =>
              present.presentSiteSpace(site)(siteSpace)
            )
          ))
        .handle("removeSiteSpace", ({ path }) => onSite(path, siteSpaces.removeSiteSpace(path.siteId, path.siteSpaceId)))
        .handle("moveSiteSpace", ({ path, payload }) =>
          onSite(path, siteSpaces.moveSiteSpace(path.siteId, path.siteSpaceId, payload.position)).pipe(
            Effect.map(({ site, siteSpace }) =>
              present.presentSiteSpace(site)(siteSpace)
            )
          ))
        .handle("listSections", ({ path, urlParams: { shareKey, ...page } }) =>
          sitePageOf(
            sectionListKey(path.siteId),
            page,
            (request) =>
              owned(path)(sections.listSections(path.siteId, shareKey, request)),
            present.presentSection
          ))
        .handle("addSection", ({ path, payload: { sectionGroupId, siteSectionGroupId, ...rest } }) => {
          const group = sectionGroupId ?? siteSectionGroupId
          return onSite(path, sections.addSection(path.siteId, group === undefined ? rest : { ...rest, sectionGroupId: group })).pipe(
            Effect.flatMap(({ section, site }) =>
              created(locations.section(site, section.section.id), present.presentSection(site)(section))
            )
          )
        })
        .handle("getSection", ({ path, urlParams }) =>
          onSite(path, sections.getSection(path.siteId, path.siteSectionId, urlParams.shareKey)).pipe(
            Effect.map(({ section, site }) => present.presentSection(site)(section))
          ))
        .handle("updateSection", ({ path, payload: { sectionGroupId, siteSectionGroupId, ...rest } }) =>
          onSite(
            path,
            sections.updateSection(path.siteId, path.siteSectionId, {
              ...rest,
              // null (back to the root) is a value: either name may carry it.
              ...(sectionGroupId !== undefined
                ? { sectionGroupId }
                : siteSectionGroupId !== undefined
                ? { sectionGroupId: siteSectionGroupId }
                : {})
            })
          ).pipe(
            Effect.map(({ section, site }) =>
              present.presentSection(site)(section)
            )
          ))
        .handle("removeSection", ({ path }) => onSite(path, sections.removeSection(path.siteId, path.siteSectionId)))
        .handle("moveSection", ({ path, payload }) =>
          onSite(path, sections.moveSection(path.siteId, path.siteSectionId, payload.position)).pipe(
            Effect.map(({ section, site }) =>
              present.presentSection(site)(section)
            )
          ))
        .handle("listGroups", ({ path, urlParams }) =>
          sitePageOf(
            groupListKey(path.siteId),
            urlParams,
            (request) => owned(path)(sections.listGroups(path.siteId, request)),
            present.presentGroup
          ))
        .handle("addGroup", ({ path, payload }) =>
          onSite(path, sections.addGroup(path.siteId, payload)).pipe(
            Effect.flatMap(({ group, site }) => created(locations.group(site, group.group.id), present.presentGroup(site)(group)))
          ))
        .handle("updateGroup", ({ path, payload }) =>
          onSite(path, sections.updateGroup(path.siteId, path.siteSectionGroupId, payload)).pipe(
            Effect.map(({ group, site }) => present.presentGroup(site)(group))
          ))
        .handle("removeGroup", ({ path }) => onSite(path, sections.removeGroup(path.siteId, path.siteSectionGroupId)))
        .handle("addSectionToGroup", ({ path, payload }) =>
          onSite(path, sections.addSectionToGroup(path.siteId, path.siteSectionGroupId, payload.sectionId)).pipe(
            Effect.map(({ group, site }) =>
              present.presentGroup(site)(group)
            )
          ))
        .handle("removeSectionFromGroup", ({ path }) =>
          onSite(path, sections.removeSectionFromGroup(path.siteId, path.siteSectionGroupId, path.siteSectionId)))
        .handle("moveGroup", ({ path, payload }) =>
          onSite(path, sections.moveGroup(path.siteId, path.siteSectionGroupId, payload.position)).pipe(
            Effect.map(({ group, site }) =>
              present.presentGroup(site)(group)
            )
          ))
    })
)

export const ShareLinksLive = HttpApiBuilder.group(
  OctavoBase.add(ShareLinksApi),
  "shareLinks",
  (handlers) =>
    Effect.gen(function*() {
      const { onSite, owned, present } = yield* make
      const shareLinks = yield* ShareLinks
      return handlers
        .handle("listShareLinks", ({ path, urlParams: { search, ...page } }) =>
          sitePageOf(
            shareLinkListKey(path.siteId, search),
            page,
            (request) => owned(path)(shareLinks.listShareLinks(path.siteId, search, request)),
            present.presentShareLink
          ))
        .handle("createShareLink", ({ path, payload }) =>
          onSite(path, shareLinks.createShareLink(path.siteId, payload)).pipe(
            Effect.flatMap(({ link, site }) => createdAs(present.presentShareLink(site))(link))
          ))
        .handle("updateShareLink", ({ path, payload }) =>
          onSite(path, shareLinks.updateShareLink(path.siteId, path.shareLinkId, payload)).pipe(
            Effect.map(({ link, site }) =>
              present.presentShareLink(site)(link)
            )
          ))
        .handle("removeShareLink", ({ path }) => onSite(path, shareLinks.removeShareLink(path.siteId, path.shareLinkId)))
    })
)

export const SiteRedirectsLive = HttpApiBuilder.group(
  OctavoBase.add(SiteRedirectsApi),
  "siteRedirects",
  (handlers) =>
    Effect.gen(function*() {
      const { onSite, owned, present } = yield* make
      const redirects = yield* SiteRedirects
      return handlers
        .handle("listSiteRedirects", ({ path, urlParams: { draft, limit, orderBy, page, search } }) => {
          const filter = { search, draft, orderBy }
          return sitePageOf(
            siteRedirectListKey(path.siteId, filter),
            { limit, page },
            (request) => owned(path)(redirects.listRedirects(path.siteId, filter, request)),
            () => present.presentRedirect
          )
        })
        .handle("createSiteRedirect", ({ path, payload }) =>
          onSite(path, redirects.createRedirect(path.siteId, payload)).pipe(
            Effect.flatMap((redirect) => created(present.locations.redirect(path, redirect.id), present.presentRedirect(redirect)))
          ))
        .handle("bulkUpsertSiteRedirects", ({ path, payload }) =>
          onSite(path, redirects.bulkRedirects(path.siteId, payload)).pipe(Effect.map((results) => ({ results }))))
        .handle("updateSiteRedirectById", ({ path, payload }) =>
          onSite(path, redirects.updateRedirect(path.siteId, path.siteRedirectId, payload)).pipe(Effect.map(present.presentRedirect)))
        .handle("deleteSiteRedirectById", ({ path }) =>
          onSite(path, redirects.removeRedirect(path.siteId, path.siteRedirectId)))
        .handle("getSiteRedirectBySource", ({ path, urlParams }) =>
          onSite(path, redirects.resolveRedirect(path.siteId, urlParams.source, urlParams.shareKey)).pipe(
            Effect.map(({ redirect, site, target }) => ({
              redirect: present.presentRedirect(redirect),
              target: present.targetUrl(site, target)
            }))
          ))
    })
)
