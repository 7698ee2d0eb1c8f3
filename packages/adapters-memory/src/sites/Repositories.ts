import {
  Conflict,
  pageInMemory,
  ShareLinkRepository,
  type Site,
  redirectKeyset,
  redirectOrder,
  type SiteId,
  type SiteRedirect,
  SiteRedirectRepository,
  SiteRepository,
  type SiteSpace,
  SiteStructureRepository,
  type SpaceId
} from "@octavo/domain"
import { Effect, HashMap, Option } from "effect"
import { membershipIn } from "../organizations/index.js"
import { byCreation, byId, change, type ConflictCheck, containsFolded, layerOver } from "../shared/index.js"
import { SitesState } from "./State.js"

const sameFolded = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase()

/** A basename is unique within its organization, a proxy within the instance; both case-insensitively. */
const siteConflict = (held: HashMap.HashMap<string, Site>, site: Site): Conflict | undefined => {
  const others = HashMap.filter(held, (s) => s.id !== site.id)
  const { basename, proxy } = site
  if (basename !== null && HashMap.some(others, (s) => s.organizationId === site.organizationId && sameFolded(s.basename, basename))) {
    return new Conflict({ reason: `The basename ${basename} is taken in this organization` })
  }
  if (proxy !== null && HashMap.some(others, (s) => sameFolded(s.proxy, proxy))) {
    return new Conflict({ reason: `The proxy ${proxy} is taken` })
  }
  return undefined
}

export const MemorySiteRepository = layerOver(SiteRepository, SitesState, ({ siteSpaces, sites }, store) => ({
  insert: (site) => sites.insert(site.id, site, (held) => siteConflict(held, site)),
  update: (site) => sites.replace(site.id, site, (held) => siteConflict(held, site)),
  remove: (id) =>
    change(store, SitesState, (s) => ({
      ...s,
      sites: HashMap.remove(s.sites, id),
      sections: HashMap.filter(s.sections, (section) => section.siteId !== id),
      groups: HashMap.filter(s.groups, (group) => group.siteId !== id),
      siteSpaces: HashMap.filter(s.siteSpaces, (siteSpace) => siteSpace.siteId !== id),
      shareLinks: HashMap.filter(s.shareLinks, (link) => link.siteId !== id),
      redirects: HashMap.filter(s.redirects, (redirect) => redirect.siteId !== id),
      redirectSources: HashMap.filter(s.redirectSources, (_, key) => !key.startsWith(`${id}\u0000`))
    })),
  findById: sites.get,
  findForAccess: (id, userId) =>
    store.read((state) =>
      Option.map(HashMap.get(sites.in(state), id), (site) => ({ site, membership: membershipIn(state, site.organizationId, userId) }))
    ),
  findByBasename: (organizationId, basename) =>
    Effect.map(
      sites.filter((site) => site.organizationId === organizationId && sameFolded(site.basename, basename)),
      (found) => Option.fromNullable(found[0])
    ),
  lock: () => Effect.void,
  list: (organizationId, filter, page) =>
    store.read((state) => {
      const { published, spaceId, title, types } = filter
      const onSpace = spaceId === undefined
        ? undefined
        : new Set<string>(siteSpaces.valuesIn(state).filter((ss) => ss.spaceId === spaceId).map((ss) => ss.siteId))
      const mine = sites.valuesIn(state).filter((site) =>
        site.organizationId === organizationId &&
        (onSpace === undefined || onSpace.has(site.id)) &&
        (title === undefined || containsFolded(site.title, title)) &&
        (published === undefined || site.published === published) &&
        (types === undefined || types.length === 0 || types.includes(site.type))
      )
      return pageInMemory(mine, byCreation, "asc", page)
    }),
  holding: (spaceId) => Effect.map(siteSpaces.filter((ss) => ss.spaceId === spaceId), (held) => [...new Set(held.map((ss) => ss.siteId))])
}))

const pairsOf = (held: Effect.Effect<ReadonlyArray<SiteSpace>>) =>
  Effect.map(
    held,
    (all): ReadonlyArray<{ readonly siteId: SiteId; readonly spaceId: SpaceId }> => all.map(({ siteId, spaceId }) => ({ siteId, spaceId }))
  )

export const MemorySiteStructureRepository = layerOver(
  SiteStructureRepository,
  SitesState,
  ({ groups, sections, siteSpaces }, store) => ({
    load: (siteId) =>
      store.read((state) => ({
        sections: sections.valuesIn(state).filter((section) => section.siteId === siteId),
        groups: groups.valuesIn(state).filter((group) => group.siteId === siteId),
        siteSpaces: siteSpaces.valuesIn(state).filter((siteSpace) => siteSpace.siteId === siteId)
      })),
    // Removals first, then the puts: an id both removed and put ends up put.
    write: (writes) =>
      change(store, SitesState, (s) => ({
        ...s,
        sections: HashMap.mutate(s.sections, (map) => {
          for (const id of writes.sections.removed) HashMap.remove(map, id)
          for (const section of writes.sections.put) HashMap.set(map, section.id, section)
        }),
        groups: HashMap.mutate(s.groups, (map) => {
          for (const id of writes.groups.removed) HashMap.remove(map, id)
          for (const group of writes.groups.put) HashMap.set(map, group.id, group)
        }),
        siteSpaces: HashMap.mutate(s.siteSpaces, (map) => {
          for (const id of writes.siteSpaces.removed) HashMap.remove(map, id)
          for (const siteSpace of writes.siteSpaces.put) HashMap.set(map, siteSpace.id, siteSpace)
        })
      })),
    spacesOf: (siteIds) => pairsOf(siteSpaces.filter((siteSpace) => siteIds.includes(siteSpace.siteId))),
    onSpaces: (spaceIds) => pairsOf(siteSpaces.filter((siteSpace) => spaceIds.includes(siteSpace.spaceId)))
  })
)

export const MemoryShareLinkRepository = layerOver(ShareLinkRepository, SitesState, ({ shareLinks }) => {
  const { delete: remove, ...writes } = byId(shareLinks)
  return {
    ...writes,
    remove,
    list: (siteId, search, page) =>
      shareLinks.page(
        (link) =>
          link.siteId === siteId &&
          (search === undefined || containsFolded(link.name, search) || containsFolded(link.key, search)),
        byCreation,
        "asc",
        page
      ),
    active: (siteId) => shareLinks.filter((link) => link.siteId === siteId && link.active)
  }
})

/** Where a redirect is in the index of sources: a source names one live redirect and one draft per site. */
const sourceKey = (r: Pick<SiteRedirect, "siteId" | "draft" | "source">) =>
  `${r.siteId}\u0000${r.draft ? "draft" : "live"}\u0000${r.source}`

export const MemorySiteRedirectRepository = layerOver(SiteRedirectRepository, SitesState, ({ redirectSources, redirects }) => {
  const sourceTaken = (redirect: SiteRedirect): ConflictCheck<SiteRedirect, Conflict> => (_, state) => {
    const held = HashMap.get(redirectSources.in(state), sourceKey(redirect))
    return Option.isSome(held) && held.value !== redirect.id
      ? new Conflict({ reason: `This site has a ${redirect.draft ? "draft " : ""}redirect from ${redirect.source} already` })
      : undefined
  }
  const unindex = (id: string) =>
    Effect.flatMap(redirects.get(id), (held) => Option.isSome(held) ? redirectSources.remove(sourceKey(held.value)) : Effect.void)
  return {
    insert: (redirect) =>
      Effect.zipRight(
        redirects.insert(redirect.id, redirect, sourceTaken(redirect)),
        redirectSources.upsert(sourceKey(redirect), () => redirect.id)
      ),
    update: (redirect) =>
      Effect.gen(function*() {
        const before = yield* redirects.get(redirect.id)
        yield* redirects.replace(redirect.id, redirect, sourceTaken(redirect))
        if (Option.isSome(before)) yield* redirectSources.remove(sourceKey(before.value))
        yield* redirectSources.upsert(sourceKey(redirect), () => redirect.id)
      }),
    remove: (id) => Effect.zipRight(unindex(id), redirects.remove(id)),
    findById: redirects.get,
    findBySource: (siteId, source, draft) =>
      Effect.flatMap(
        redirectSources.get(sourceKey({ siteId, draft, source })),
        (id) => Option.isSome(id) ? redirects.get(id.value) : Effect.succeedNone
      ),
    count: (siteId) => redirects.count((r) => r.siteId === siteId),
    list: (siteId, filter, page) =>
      redirects.page(
        (r) => r.siteId === siteId && r.draft === filter.draft && (filter.search === undefined || containsFolded(r.source, filter.search)),
        redirectKeyset(filter.orderBy),
        redirectOrder(filter.orderBy),
        page
      ),
    matching: (siteId, sources) => {
      const wanted = new Set(sources)
      return redirects.filter((r) => r.siteId === siteId && !r.draft && wanted.has(r.source))
    }
  }
})
