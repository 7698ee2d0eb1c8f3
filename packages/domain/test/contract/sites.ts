import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Either, Layer, Option, TestClock } from "effect"
import {
  Actor,
  ChangeRequests,
  Collections,
  inOrganization,
  type Organization,
  type OrganizationId,
  type PageRequest,
  type Role,
  type ShareLink,
  ShareLinkId,
  ShareLinkRepository,
  type Site,
  SiteId,
  SiteRepository,
  type SiteSection,
  type SiteSectionGroup,
  SiteSectionGroupId,
  SiteSectionId,
  type SiteSpace,
  SiteSpaceId,
  type SiteSpaceView,
  SiteReads,
  SiteReadsOneByOne,
  SiteTreeRowReads,
  SiteTreeRowReadsOneByOne,
  SpaceFactRows,
  ShareLinks,
  SitePublishing,
  Sites,
  SiteSections,
  SiteSpaces,
  SiteStructureRepository,
  type SpaceId,
  SpaceLifecycle,
  Spaces,
  type StoragePorts
} from "../../src/index.js"
import { walk } from "./walk.js"
import {
  adminOfNewOrganization,
  at,
  byId,
  makeMember,
  makeOrganization,
  makeUser,
  orderedFactRows,
  countsOf,
  factRowsOf,
  publishedOf,
  sameAsOneByOne,
  type Services,
  siteOf,
  uniqueId
} from "./fixtures.js"

const failureTag = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => (Either.isLeft(result) ? result.left._tag : "success")

const first = (limit = 50): PageRequest => ({ limit, after: Option.none() })

/** A unique proxy: proxies are unique on the whole instance, and a server database outlives a run. */
const newProxy = () => `${uniqueId("h").toLowerCase()}.example.com/docs`

const invalidField = <A>(result: Either.Either<A, { readonly _tag: string }>) =>
  Either.isLeft(result) && result.left._tag === "InvalidInput" ? (result.left as unknown as { field: string }).field : "not InvalidInput"

/** The sites slice of the storage contract: the repositories, then the use cases over them. */
export const sitesContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(services.pipe(Layer.provideMerge(storage)), { timeout: 60_000 })("sites", (it) => {
    /** A new organization's admin, with spaces of the given titles. */
    const withSpaces = (...titles: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const spaces = yield* Spaces
        const { organization, run } = yield* adminOfNewOrganization
        const made: Array<SpaceId> = []
        for (const title of titles) made.push((yield* run(spaces.create(organization.id, { title }))).space.id)
        return { organization, run, spaces: made }
      })

    const asMember = (organization: Organization, role: Role | null) =>
      Effect.gen(function*() {
        const user = yield* makeUser()
        yield* makeMember(organization, user, role)
        return Effect.provideService(Actor, user)
      })

    const spaceIdsOf = (views: ReadonlyArray<SiteSpaceView>) => views.map((v) => v.siteSpace.spaceId)

    // Storage.

    it.effect("storage: a site round trips; basenames are unique per organization and proxies per instance, case-insensitively", () =>
      Effect.gen(function*() {
        const repo = yield* SiteRepository
        const acme = yield* makeOrganization()
        const other = yield* makeOrganization()
        const proxy = newProxy()
        const site = siteOf(acme.id, {
          type: "premium",
          title: "Acme Docs",
          visibility: "share-link",
          published: true,
          basename: "Docs",
          proxy,
          adaptiveContent: true,
          publishingAuth: { privateKey: "a".repeat(43), fallbackURL: "https://acme.test/login", logoutURL: null },
          adaptiveSchema: {
            jsonSchema: { type: "object", properties: { plan: { type: "string", description: "Plan" } }, additionalProperties: false },
            updatedAt: at(2)
          },
          createdAt: at(1),
          updatedAt: at(2)
        })
        yield* repo.insert(site)
        expect(Option.getOrThrow(yield* repo.findById(site.id))).toEqual(site)
        expect(yield* repo.findById(SiteId.make(uniqueId("site")))).toEqual(Option.none())

        const changed: Site = {
          ...site,
          title: "Renamed",
          visibility: "unlisted",
          published: false,
          basename: null,
          proxy: null,
          adaptiveContent: false,
          publishingAuth: { privateKey: "b".repeat(43), fallbackURL: null, logoutURL: "https://acme.test/bye" },
          adaptiveSchema: null,
          updatedAt: at(3)
        }
        yield* repo.update(changed)
        expect(Option.getOrThrow(yield* repo.findById(site.id))).toEqual(changed)
        yield* repo.update(site)

        // The basename: per organization, whatever its case.
        expect(failureTag(yield* Effect.either(repo.insert(siteOf(acme.id, { basename: "DOCS" }))))).toBe("Conflict")
        const elsewhere = siteOf(other.id, { basename: "docs" })
        yield* repo.insert(elsewhere)
        expect(Option.getOrThrow(yield* repo.findById(elsewhere.id)).basename).toBe("docs")
        const second = siteOf(acme.id, { basename: "guides" })
        yield* repo.insert(second)
        expect(failureTag(yield* Effect.either(repo.update({ ...second, basename: "dOcS" })))).toBe("Conflict")
        expect(Option.getOrThrow(yield* repo.findById(second.id)).basename).toBe("guides")
        // Published URLs find a site by its basename in its organization, whatever the case.
        expect(Option.map(yield* repo.findByBasename(acme.id, "dOCs"), (s) => s.id)).toEqual(Option.some(site.id))
        expect(Option.map(yield* repo.findByBasename(other.id, "DOCS"), (s) => s.id)).toEqual(Option.some(elsewhere.id))
        expect(yield* repo.findByBasename(other.id, "guides")).toEqual(Option.none())
        expect(yield* repo.findByBasename(acme.id, "doc")).toEqual(Option.none())

        // The proxy: on the whole instance.
        expect(failureTag(yield* Effect.either(repo.insert(siteOf(other.id, { proxy }))))).toBe("Conflict")
        expect(failureTag(yield* Effect.either(repo.insert(siteOf(other.id, { proxy: proxy.toUpperCase() }))))).toBe("Conflict")
        expect(failureTag(yield* Effect.either(repo.update({ ...elsewhere, proxy })))).toBe("Conflict")
        // Removing the basename and proxy frees them.
        yield* repo.update({ ...site, basename: null, proxy: null })
        yield* repo.update({ ...second, basename: "docs", proxy })
        expect(Option.getOrThrow(yield* repo.findById(second.id))).toMatchObject({ basename: "docs", proxy })
      }))

    it.effect("storage: a site is read with the reader's membership of its organization; an outsider's is none", () =>
      Effect.gen(function*() {
        const repo = yield* SiteRepository
        const organization = yield* makeOrganization()
        const other = yield* makeOrganization()
        const member = yield* makeUser()
        const guest = yield* makeUser()
        const outsider = yield* makeUser()
        const record = yield* makeMember(organization, member, "read")
        const guestRecord = yield* makeMember(organization, guest, null)
        // A member of another organization is an outsider here.
        yield* makeMember(other, outsider, "admin")
        const site = siteOf(organization.id, {
          published: true,
          adaptiveSchema: {
            jsonSchema: { type: "object", properties: { plan: { type: "string", enum: ["free", "pro"] } } },
            updatedAt: at(2)
          }
        })
        yield* repo.insert(site)
        expect(yield* repo.findForAccess(site.id, member.id)).toEqual(
          Option.some({ site, membership: Option.some({ member: record, organization }) })
        )
        // A guest's membership is read as it is: the service decides what a guest sees.
        expect(yield* repo.findForAccess(site.id, guest.id)).toEqual(
          Option.some({ site, membership: Option.some({ member: guestRecord, organization }) })
        )
        expect(yield* repo.findForAccess(site.id, outsider.id)).toEqual(Option.some({ site, membership: Option.none() }))
        expect(yield* repo.findForAccess(SiteId.make(uniqueId("none")), member.id)).toEqual(Option.none())
      }))

    it.effect("storage: sites list by (createdAt, id) with the space, title, published and type filters, paged and counted", () =>
      Effect.gen(function*() {
        const repo = yield* SiteRepository
        const structures = yield* SiteStructureRepository
        const { organization, spaces: [guide, api] } = yield* withSpaces("Guide", "API")
        const make = (fields: Partial<Site>) => siteOf(organization.id, fields)
        const alpha = make({ title: "Alpha Docs", createdAt: at(5), published: true, type: "premium" })
        const beta = make({ title: "beta DOCS", createdAt: at(1), type: "ultimate" })
        const gamma = make({ title: "Gamma", createdAt: at(3), published: true })
        const delta = make({ title: "Delta", createdAt: at(3), type: "premium" })
        const epsilon = make({ title: "Epsilon docs", createdAt: at(2), published: true, type: "sponsored" })
        for (const site of [alpha, beta, gamma, delta, epsilon]) yield* repo.insert(site)
        yield* repo.insert(siteOf((yield* makeOrganization()).id, { title: "Alpha Docs" }))
        const rootSpace = (site: Site, spaceId: SpaceId, position: string): SiteSpace => ({
          id: SiteSpaceId.make(uniqueId("ss")),
          siteId: site.id,
          sectionId: null,
          spaceId,
          path: "p",
          condition: null,
          hidden: false,
          localizedTitle: {},
          position,
          createdAt: at(1)
        })
        const held = [rootSpace(alpha, guide!, "a0"), rootSpace(gamma, guide!, "a0"), rootSpace(gamma, api!, "a1")]
        yield* structures.write({
          sections: { put: [], removed: [] },
          groups: { put: [], removed: [] },
          siteSpaces: { put: held, removed: [] }
        })

        const tie = [gamma.id, delta.id].sort()
        const list = (filter: Parameters<typeof repo.list>[1], limit: number) =>
          Effect.map(walk((page) => repo.list(organization.id, filter, page), limit), (sites) => sites.map((s) => s.id))
        expect(yield* list({}, 2)).toEqual([beta.id, epsilon.id, ...tie, alpha.id])
        expect((yield* repo.list(organization.id, {}, first(2))).count).toBe(5)
        expect(yield* list({ title: "DoCs" }, 1)).toEqual([beta.id, epsilon.id, alpha.id])
        expect((yield* repo.list(organization.id, { title: "docs" }, first(1))).count).toBe(3)
        expect(yield* list({ published: true }, 1)).toEqual([epsilon.id, gamma.id, alpha.id])
        expect(yield* list({ published: false }, 5)).toEqual([beta.id, delta.id])
        expect(yield* list({ types: ["premium", "sponsored"] }, 2)).toEqual([epsilon.id, delta.id, alpha.id])
        expect(yield* list({ types: [] }, 10)).toHaveLength(5)
        expect(yield* list({ spaceId: guide! }, 1)).toEqual([gamma.id, alpha.id])
        expect(yield* list({ spaceId: api!, published: true, title: "gam" }, 1)).toEqual([gamma.id])
        expect((yield* repo.list(organization.id, { spaceId: api!, published: false }, first())).count).toBe(0)
        expect([...(yield* repo.holding(guide!))].sort()).toEqual([alpha.id, gamma.id].sort())
        const pairs = yield* structures.spacesOf([alpha.id, gamma.id, beta.id])
        expect(pairs.map((p) => `${p.siteId}:${p.spaceId}`).sort()).toEqual(
          [`${alpha.id}:${guide}`, `${gamma.id}:${guide}`, `${gamma.id}:${api}`].sort()
        )
      }))

    it.effect("storage: structure writes remove then put; removing a site removes its structure and share links", () =>
      Effect.gen(function*() {
        const repo = yield* SiteRepository
        const structures = yield* SiteStructureRepository
        const links = yield* ShareLinkRepository
        const { organization, spaces: [one, two] } = yield* withSpaces("One", "Two")
        const site = siteOf(organization.id)
        yield* repo.insert(site)
        expect(yield* structures.load(site.id)).toEqual({ sections: [], groups: [], siteSpaces: [] })
        const group: SiteSectionGroup = {
          id: SiteSectionGroupId.make(uniqueId("g")),
          siteId: site.id,
          title: "Group",
          localizedTitle: { fr: "Groupe", "pt-br": "Grupo" },
          icon: null,
          position: "a1",
          createdAt: at(1)
        }
        const section: SiteSection = {
          id: SiteSectionId.make(uniqueId("sec")),
          siteId: site.id,
          title: "Section",
          localizedTitle: { ja: "セクション" },
          description: "About",
          localizedDescription: { fr: "À propos" },
          icon: "book",
          path: "section",
          condition: "visitor.claims.pro == true",
          groupId: group.id,
          position: "a0",
          defaultSiteSpaceId: null,
          createdAt: at(2)
        }
        const ss1: SiteSpace = {
          id: SiteSpaceId.make(uniqueId("ss")),
          siteId: site.id,
          sectionId: section.id,
          spaceId: one!,
          path: "one",
          condition: null,
          hidden: false,
          localizedTitle: { zh: "一" },
          position: "a0",
          createdAt: at(3)
        }
        const ss2: SiteSpace = {
          ...ss1,
          id: SiteSpaceId.make(uniqueId("ss")),
          spaceId: two!,
          path: "two",
          localizedTitle: {},
          position: "a1"
        }
        const withDefault = { ...section, defaultSiteSpaceId: ss1.id }
        yield* structures.write({
          groups: { put: [group], removed: [] },
          sections: { put: [withDefault], removed: [] },
          siteSpaces: { put: [ss1, ss2], removed: [] }
        })
        const loaded = yield* structures.load(site.id)
        expect(loaded.groups).toEqual([group])
        expect(loaded.sections).toEqual([withDefault])
        expect(byId(loaded.siteSpaces)).toEqual(byId([ss1, ss2]))

        // One write: a site space removed, another changed, the section changed.
        const moved = { ...ss2, path: "two-b", condition: "visitor.claims.a", position: "Zz" }
        const changed = { ...withDefault, defaultSiteSpaceId: ss2.id, groupId: null, title: "Renamed", description: null }
        yield* structures.write({
          groups: { put: [], removed: [group.id] },
          sections: { put: [changed], removed: [] },
          siteSpaces: { put: [moved], removed: [ss1.id] }
        })
        expect(yield* structures.load(site.id)).toEqual({ sections: [changed], groups: [], siteSpaces: [moved] })

        // Removed and put in one write: the put wins.
        const back = { ...ss1, path: "back" }
        yield* structures.write({
          groups: { put: [], removed: [] },
          sections: { put: [], removed: [] },
          siteSpaces: { put: [back], removed: [back.id] }
        })
        expect(byId((yield* structures.load(site.id)).siteSpaces)).toEqual(byId([moved, back]))

        const link: ShareLink = {
          id: ShareLinkId.make(uniqueId("sl")),
          siteId: site.id,
          name: "Link",
          key: "A".repeat(32),
          active: true,
          createdAt: at(1)
        }
        yield* links.insert(link)
        yield* repo.remove(site.id)
        expect(yield* repo.findById(site.id)).toEqual(Option.none())
        expect(yield* structures.load(site.id)).toEqual({ sections: [], groups: [], siteSpaces: [] })
        expect(yield* links.findById(link.id)).toEqual(Option.none())
        expect(yield* links.active(site.id)).toEqual([])
        expect(yield* repo.holding(one!)).toEqual([])
      }))

    it.effect("storage: share links list by (createdAt, id) with a search on name or key; active lists the active ones", () =>
      Effect.gen(function*() {
        const repo = yield* SiteRepository
        const links = yield* ShareLinkRepository
        const organization = yield* makeOrganization()
        const site = siteOf(organization.id)
        const otherSite = siteOf(organization.id)
        yield* repo.insert(site)
        yield* repo.insert(otherSite)
        const link = (name: string, key: string, minute: number, active = true): ShareLink => ({
          id: ShareLinkId.make(uniqueId("sl")),
          siteId: site.id,
          name,
          key,
          active,
          createdAt: at(minute)
        })
        const partners = link("Partners", "Pq7".padEnd(32, "x"), 3)
        const press = link("Press kit", "Zz9".padEnd(32, "y"), 1, false)
        const beta = link("Beta testers", "Kk1".padEnd(32, "w"), 2)
        for (const each of [partners, press, beta]) yield* links.insert(each)
        yield* links.insert({ ...link("Partners", "Pq7".padEnd(32, "v"), 1), siteId: otherSite.id })
        expect(Option.getOrThrow(yield* links.findById(press.id))).toEqual(press)
        const ids = (search: string | undefined) =>
          Effect.map(walk((page) => links.list(site.id, search, page), 1), (all) => all.map((l) => l.id))
        expect(yield* ids(undefined)).toEqual([press.id, beta.id, partners.id])
        expect((yield* links.list(site.id, undefined, first(1))).count).toBe(3)
        expect(yield* ids("PARTN")).toEqual([partners.id])
        expect(yield* ids("zz9")).toEqual([press.id])
        expect(yield* ids("e")).toEqual([press.id, beta.id, partners.id])
        expect(yield* ids("nothing")).toEqual([])
        expect(byId(yield* links.active(site.id))).toEqual(byId([partners, beta]))

        yield* links.update({ ...press, active: true, name: "Press" })
        yield* links.update({ ...beta, active: false })
        expect(Option.getOrThrow(yield* links.findById(press.id))).toEqual({ ...press, active: true, name: "Press" })
        expect((yield* links.active(site.id)).map((l) => l.id).sort()).toEqual([partners.id, press.id].sort())
        yield* links.remove(partners.id)
        expect(yield* links.findById(partners.id)).toEqual(Option.none())
        expect((yield* links.active(site.id)).map((l) => l.id)).toEqual([press.id])
      }))

    // Use cases: creating sites.

    it.effect("create: spaces by id become root site spaces in order, the first the default; defaults of a new site", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const { organization, run, spaces } = yield* withSpaces("Zeta", "Alpha", "Mid")
        const ordered = [spaces[1]!, spaces[2]!, spaces[0]!]
        const view = yield* run(sites.create(organization.id, { spaces: ordered }))
        expect(view.siteSpaceCount).toBe(3)
        expect(view.site).toMatchObject({
          organizationId: organization.id,
          type: "basic",
          title: "Untitled site",
          visibility: "public",
          published: false,
          basename: null,
          proxy: null,
          adaptiveContent: false,
          defaultSectionId: null,
          adaptiveSchema: null
        })
        expect(view.shareKey).toBeUndefined()
        expect(view.permissions).toEqual({
          view: true,
          access: true,
          edit: true,
          create: true,
          admin: true,
          installIntegration: false,
          viewAdaptiveSchema: true,
          editAdaptiveSchema: true
        })
        expect(view.location).toEqual({ published: false, proxy: null, organization: organization.id, site: view.site.id })
        const listed = yield* run(siteSpaces.listSiteSpaces(view.site.id, {}, first()))
        expect(spaceIdsOf(listed.items)).toEqual(ordered)
        expect(listed.items.map((v) => v.default)).toEqual([true, false, false])
        expect(listed.items.map((v) => v.siteSpace.path)).toEqual(["alpha", "mid", "zeta"])
        expect(listed.items.map((v) => v.path)).toEqual([[], ["mid"], ["zeta"]])
        expect(view.site.defaultSiteSpaceId).toBe(listed.items[0]!.siteSpace.id)
        expect(listed.site.siteSpaceCount).toBe(3)
        const defaults = yield* run(siteSpaces.listSiteSpaces(view.site.id, { default: true }, first()))
        expect(spaceIdsOf(defaults.items)).toEqual([ordered[0]])
        const others = yield* run(siteSpaces.listSiteSpaces(view.site.id, { default: false }, first()))
        expect(spaceIdsOf(others.items)).toEqual(ordered.slice(1))
        const fetched = yield* run(sites.get(view.site.id))
        expect(fetched.site).toEqual(view.site)
        expect(fetched.siteSpaceCount).toBe(3)
        yield* TestClock.adjust(Duration.minutes(1))
        const empty = yield* run(sites.create(organization.id, { type: "ultimate", visibility: "unlisted", title: "Empty" }))
        expect(empty.site).toMatchObject({ type: "ultimate", visibility: "unlisted", title: "Empty", defaultSiteSpaceId: null })
        expect(empty.siteSpaceCount).toBe(0)
        const listedSites = yield* run(sites.list(organization.id, {}, first()))
        expect(listedSites.items.map((v) => [v.site.id, v.siteSpaceCount])).toEqual([[view.site.id, 3], [empty.site.id, 0]])
      }))

    it.effect("create: the object form creates a space titled after the site (cut to 50), the default site space", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const spaces = yield* Spaces
        const { organization, run } = yield* adminOfNewOrganization
        const title = "A site whose title runs well past the fifty characters of a space title"
        const view = yield* run(sites.create(organization.id, { title, spaces: {} }))
        expect(view.site.title).toBe(title)
        expect(view.siteSpaceCount).toBe(1)
        const listed = yield* run(siteSpaces.listSiteSpaces(view.site.id, {}, first()))
        expect(listed.items).toHaveLength(1)
        expect(listed.items[0]!.default).toBe(true)
        expect(view.site.defaultSiteSpaceId).toBe(listed.items[0]!.siteSpace.id)
        const space = yield* run(spaces.get(listed.items[0]!.siteSpace.spaceId))
        expect(space.space.title).toBe(title.slice(0, 50))
        expect(space.space.organizationId).toBe(organization.id)
        const named = yield* run(sites.create(organization.id, { title: "Handbook", spaces: { title: "Own title" } }))
        const own = yield* run(siteSpaces.listSiteSpaces(named.site.id, {}, first()))
        expect((yield* run(spaces.get(own.items[0]!.siteSpace.spaceId))).space.title).toBe("Own title")
        expect(own.items[0]!.siteSpace.path).toBe("own-title")
        const untitled = yield* run(sites.create(organization.id, { spaces: {} }))
        const untitledSpaces = yield* run(siteSpaces.listSiteSpaces(untitled.site.id, {}, first()))
        expect((yield* run(spaces.get(untitledSpaces.items[0]!.siteSpace.spaceId))).space.title).toBe("Untitled site")
      }))

    it.effect("create: a space of another organization, a deleted one and an unknown one are refused alike; nothing is created", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const lifecycle = yield* SpaceLifecycle
        const { organization, run, spaces: [good, gone] } = yield* withSpaces("Good", "Gone")
        yield* run(lifecycle.delete(gone!))
        const foreign = yield* withSpaces("Foreign")
        const unknown = uniqueId("s") as SpaceId
        const rules: Array<string> = []
        for (const bad of [foreign.spaces[0]!, gone!, unknown]) {
          const result = yield* Effect.either(run(sites.create(organization.id, { title: "Docs", spaces: [good!, bad] })))
          expect(failureTag(result)).toBe("InvalidInput")
          expect(invalidField(result)).toBe("spaces.1")
          if (Either.isLeft(result) && result.left._tag === "InvalidInput") rules.push(result.left.rule.replace(bad, "<id>"))
        }
        expect(rules).toHaveLength(3)
        expect(new Set(rules).size).toBe(1)
        expect((yield* run(sites.list(organization.id, {}, first()))).count).toBe(0)
        expect(yield* (yield* SiteRepository).holding(good!)).toEqual([])
      }))

    it.effect("create: the title is trimmed and must be 2-128 characters once trimmed", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const { organization, run } = yield* adminOfNewOrganization
        expect((yield* run(sites.create(organization.id, { title: "  ab  " }))).site.title).toBe("ab")
        expect((yield* run(sites.create(organization.id, { title: "t".repeat(128) }))).site.title).toBe("t".repeat(128))
        for (const title of ["a", "  a  ", "", "t".repeat(129)]) {
          expect(failureTag(yield* Effect.either(run(sites.create(organization.id, { title }))))).toBe("InvalidInput")
        }
        expect((yield* run(sites.list(organization.id, {}, first()))).count).toBe(2)
        const created = yield* run(sites.create(organization.id, { title: "Docs" }))
        expect((yield* run(sites.update(created.site.id, { title: "  Renamed  " }))).site.title).toBe("Renamed")
        expect(failureTag(yield* Effect.either(run(sites.update(created.site.id, { title: " x " }))))).toBe("InvalidInput")
      }))

    // Use cases: who may do what.

    it.effect("inOrganization: a site named under another organization is not found, even to an admin of both", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const { organization, run } = yield* adminOfNewOrganization
        const other = yield* makeOrganization()
        const admin = yield* run(Actor)
        yield* makeMember(other, admin, "admin")
        const id = (yield* run(sites.create(organization.id, { title: "Docs" }))).site.id
        const under = (organizationId: OrganizationId) =>
          Effect.map(Effect.either(run(inOrganization(organizationId)(sites.get(id)))), failureTag)
        expect(yield* under(organization.id)).toBe("success")
        expect(yield* under(other.id)).toBe("NotFound")
        // A write under the other organization changes nothing.
        const renamed = yield* Effect.either(run(inOrganization(other.id)(sites.update(id, { title: "Moved" }))))
        expect(failureTag(renamed)).toBe("NotFound")
        expect((yield* run(sites.get(id))).site.title).toBe("Docs")
        expect(yield* Effect.either(run(sites.locate(other.id, id)))).toEqual(Either.left(expect.objectContaining({ _tag: "NotFound" })))
      }))

    it.effect("roles: read reads, create shapes and publishes, admin changes; guests and strangers see nothing", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const siteSections = yield* SiteSections
        const shareLinks = yield* ShareLinks
        const publishing = yield* SitePublishing
        const { organization, run, spaces: [one, two, three] } = yield* withSpaces("One", "Two", "Three")
        const site = yield* run(sites.create(organization.id, { title: "Docs", spaces: [one!] }))
        const id = site.site.id
        const reader = yield* asMember(organization, "read")
        const creator = yield* asMember(organization, "create")
        const guest = yield* asMember(organization, null)
        const stranger = Effect.provideService(Actor, yield* makeUser())
        const tag = <A, E extends { _tag: string }, R>(effect: Effect.Effect<A, E, R>) => Effect.map(Effect.either(effect), failureTag)

        // read
        const seen = yield* reader(sites.get(id))
        expect(seen.site.id).toBe(id)
        expect(seen.permissions).toMatchObject({ view: true, create: false, admin: false, editAdaptiveSchema: false })
        expect((yield* reader(sites.list(organization.id, {}, first()))).items.map((v) => v.site.id)).toEqual([id])
        expect((yield* reader(publishing.adaptiveSchema(id))).jsonSchema).toEqual({
          type: "object",
          properties: {},
          additionalProperties: false
        })
        expect(yield* tag(reader(sites.create(organization.id, { title: "Mine" })))).toBe("Forbidden")
        expect(yield* tag(reader(siteSpaces.addSiteSpace(id, { spaceId: two! })))).toBe("Forbidden")
        expect(yield* tag(reader(sites.publish(id)))).toBe("Forbidden")

        // create
        const made = yield* creator(sites.create(organization.id, { title: "Theirs" }))
        expect(made.permissions).toMatchObject({ create: true, admin: false })
        expect((yield* creator(siteSpaces.addSiteSpace(id, { spaceId: two! }))).siteSpace.siteSpace.spaceId).toBe(two)
        expect((yield* creator(siteSections.addSection(id, { spaceId: three!, title: "Reference" }))).section.section.title).toBe(
          "Reference"
        )
        expect((yield* creator(sites.publish(id))).site.published).toBe(true)
        expect((yield* creator(sites.unpublish(id))).site.published).toBe(false)
        expect(yield* tag(creator(sites.update(id, { title: "Changed" })))).toBe("Forbidden")
        expect(yield* tag(creator(sites.remove(id)))).toBe("Forbidden")
        expect(yield* tag(creator(shareLinks.createShareLink(id, { name: "Link" })))).toBe("Forbidden")
        expect(yield* tag(creator(shareLinks.listShareLinks(id, undefined, first())))).toBe("Forbidden")
        expect(
          yield* tag(
            creator(publishing.setAdaptiveSchema(id, { jsonSchema: { type: "object", properties: {}, additionalProperties: false } }))
          )
        ).toBe("Forbidden")
        expect(yield* tag(creator(publishing.publishingAuth(id)))).toBe("Forbidden")
        expect(yield* tag(creator(publishing.regeneratePublishingAuth(id)))).toBe("Forbidden")

        // admin
        expect((yield* run(sites.update(id, { title: "Changed" }))).site.title).toBe("Changed")
        expect((yield* run(shareLinks.createShareLink(id, { name: "Link" }))).link.name).toBe("Link")
        const schema = { type: "object", properties: {}, additionalProperties: false }
        expect((yield* run(publishing.setAdaptiveSchema(id, { jsonSchema: schema }))).jsonSchema).toEqual(schema)
        expect((yield* run(publishing.publishingAuth(id))).privateKey).toHaveLength(43)

        // guests and non-members: not found
        for (const outsider of [guest, stranger]) {
          expect(yield* tag(outsider(sites.get(id)))).toBe("NotFound")
          expect(yield* tag(outsider(siteSpaces.listSiteSpaces(id, {}, first())))).toBe("NotFound")
          expect(yield* tag(outsider(sites.publish(id)))).toBe("NotFound")
          expect(yield* tag(outsider(sites.list(organization.id, {}, first())))).toBe("NotFound")
        }
        expect(yield* tag(run(sites.get(SiteId.make(uniqueId("site")))))).toBe("NotFound")

        yield* run(sites.remove(id))
        expect(yield* tag(run(sites.get(id)))).toBe("NotFound")
        expect((yield* run(sites.list(organization.id, {}, first()))).items.map((v) => v.site.id)).toEqual([made.site.id])
      }))

    it.effect("publish and unpublish are idempotent and set `published`", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const { organization, run } = yield* adminOfNewOrganization
        const { site } = yield* run(sites.create(organization.id, { title: "Docs" }))
        const published = yield* run(sites.publish(site.id))
        expect(published.site.published).toBe(true)
        expect(published.location.published).toBe(true)
        const again = yield* run(sites.publish(site.id))
        expect(again.site).toEqual(published.site)
        expect((yield* run(sites.get(site.id))).site.published).toBe(true)
        expect((yield* run(sites.list(organization.id, { published: true }, first()))).items.map((v) => v.site.id)).toEqual([
          site.id
        ])
        expect((yield* run(sites.unpublish(site.id))).site.published).toBe(false)
        expect((yield* run(sites.unpublish(site.id))).site.published).toBe(false)
        expect((yield* run(sites.get(site.id))).site.published).toBe(false)
        expect((yield* run(sites.list(organization.id, { published: true }, first()))).count).toBe(0)
      }))

    it.effect("PATCH: basename unique per organization case-insensitively; proxy lowercased and unique; defaults checked", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const { organization, run, spaces: [one, two] } = yield* withSpaces("One", "Two")
        const a = yield* run(sites.create(organization.id, { title: "Docs", spaces: [one!, two!] }))
        const b = yield* run(sites.create(organization.id, { title: "Other" }))
        const tag = <A, E extends { _tag: string }, R>(effect: Effect.Effect<A, E, R>) => Effect.map(Effect.either(effect), failureTag)
        expect((yield* run(sites.update(a.site.id, { basename: "Handbook" }))).site.basename).toBe("Handbook")
        expect(yield* tag(run(sites.update(b.site.id, { basename: "HANDBOOK" })))).toBe("Conflict")
        expect(yield* tag(run(sites.update(b.site.id, { basename: "hand book" })))).toBe("InvalidInput")
        const stranger = yield* withSpaces()
        const theirs = yield* stranger.run(sites.create(stranger.organization.id, { title: "Theirs" }))
        expect((yield* stranger.run(sites.update(theirs.site.id, { basename: "handbook" }))).site.basename).toBe("handbook")

        const proxy = newProxy()
        const updated = yield* run(sites.update(a.site.id, { proxy: proxy.toUpperCase().replace(".EXAMPLE.COM", ".Example.COM") }))
        expect(updated.site.proxy).toBe(proxy)
        expect(updated.location).toMatchObject({ proxy, site: "Handbook" })
        expect(yield* tag(stranger.run(sites.update(theirs.site.id, { proxy })))).toBe("Conflict")
        expect(yield* tag(run(sites.update(b.site.id, { proxy: "https://example.com/docs" })))).toBe("InvalidInput")
        expect(yield* tag(run(sites.update(b.site.id, { proxy: "example.com" })))).toBe("InvalidInput")
        const cleared = yield* run(sites.update(a.site.id, { basename: null, proxy: null, adaptiveContent: { enabled: true } }))
        expect(cleared.site).toMatchObject({ basename: null, proxy: null, adaptiveContent: true })
        expect(cleared.location).toMatchObject({ proxy: null, site: a.site.id })
        expect((yield* run(sites.update(b.site.id, { basename: "handbook" }))).site.basename).toBe("handbook")

        const roots = (yield* run(siteSpaces.listSiteSpaces(a.site.id, {}, first()))).items.map((v) => v.siteSpace.id)
        expect((yield* run(sites.update(a.site.id, { defaultSiteSpace: roots[1]! }))).site.defaultSiteSpaceId).toBe(roots[1])
        const defaults = yield* run(siteSpaces.listSiteSpaces(a.site.id, { default: true }, first()))
        expect(defaults.items.map((v) => v.siteSpace.id)).toEqual([roots[1]])
        expect(yield* tag(run(sites.update(a.site.id, { defaultSiteSpace: SiteSpaceId.make(uniqueId("ss")) })))).toBe(
          "InvalidInput"
        )
        expect(yield* tag(run(sites.update(a.site.id, { defaultSiteSection: SiteSectionId.make(uniqueId("sec")) })))).toBe(
          "InvalidInput"
        )
        // A refused PATCH changes nothing.
        expect(yield* tag(run(sites.update(a.site.id, { title: "Refused", defaultSiteSection: SiteSectionId.make(uniqueId("sec")) }))))
          .toBe("InvalidInput")
        expect((yield* run(sites.get(a.site.id))).site).toMatchObject({ title: "Docs", defaultSiteSpaceId: roots[1] })
      }))

    it.effect("site spaces: adding at once to one site keeps one per space, with distinct paths and positions", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const { organization, run, spaces: ids } = yield* withSpaces("Guide", "Guide", "Guide", "Guide")
        const { site } = yield* run(sites.create(organization.id, { title: "Docs" }))
        const results = yield* Effect.all(
          [...ids, ids[0]!].map((spaceId) => Effect.either(run(siteSpaces.addSiteSpace(site.id, { spaceId })))),
          { concurrency: "unbounded" }
        )
        expect(results.map(failureTag).filter((t) => t === "success")).toHaveLength(4)
        expect(results.map(failureTag).filter((t) => t === "Conflict")).toHaveLength(1)
        const listed = yield* run(siteSpaces.listSiteSpaces(site.id, {}, first()))
        expect([...spaceIdsOf(listed.items)].sort()).toEqual([...ids].sort())
        expect(listed.items.map((v) => v.siteSpace.path).sort()).toEqual(["guide", "guide-2", "guide-3", "guide-4"])
        expect(listed.items.map((v) => v.default)).toEqual([true, false, false, false])
        const stored = yield* (yield* SiteStructureRepository).load(site.id)
        expect(new Set(stored.siteSpaces.map((s) => s.position)).size).toBe(4)
      }))

    // Use cases: site spaces.

    it.effect("site spaces: paths from the space title, unique in scope; PATCH path and condition; duplicates refused", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const { organization, run, spaces: [guide1, guide2, api] } = yield* withSpaces("Guide", "Guide", "API")
        const { site } = yield* run(sites.create(organization.id, { title: "Docs" }))
        const a = (yield* run(siteSpaces.addSiteSpace(site.id, { spaceId: guide1! }))).siteSpace
        const b = (yield* run(siteSpaces.addSiteSpace(site.id, { spaceId: guide2! }))).siteSpace
        const c = (yield* run(siteSpaces.addSiteSpace(site.id, { spaceId: api! }))).siteSpace
        expect([a.siteSpace.path, b.siteSpace.path, c.siteSpace.path]).toEqual(["guide", "guide-2", "api"])
        expect([a.default, b.default, c.default]).toEqual([true, false, false])
        expect(c.path).toEqual(["api"])
        expect(c.siteSpace.condition).toBeNull()

        const tag = <A, E extends { _tag: string }, R>(effect: Effect.Effect<A, E, R>) => Effect.map(Effect.either(effect), failureTag)
        expect(yield* tag(run(siteSpaces.updateSiteSpace(site.id, c.siteSpace.id, { path: "GUIDE" })))).toBe("Conflict")
        expect(yield* tag(run(siteSpaces.updateSiteSpace(site.id, c.siteSpace.id, { path: "Guide-2" })))).toBe("Conflict")
        const repathed = yield* run(siteSpaces.updateSiteSpace(site.id, c.siteSpace.id, { path: "Reference/v2" }))
        expect(repathed.siteSpace.siteSpace.path).toBe("Reference/v2")
        expect(yield* tag(run(siteSpaces.updateSiteSpace(site.id, c.siteSpace.id, { path: "a/../b" })))).toBe("InvalidInput")

        const syntax = yield* Effect.either(
          run(siteSpaces.updateSiteSpace(site.id, c.siteSpace.id, { condition: "visitor.claims.plan ==" }))
        )
        expect(failureTag(syntax)).toBe("InvalidInput")
        const condition = "visitor.claims.plan == \"pro\""
        expect((yield* run(siteSpaces.updateSiteSpace(site.id, c.siteSpace.id, { condition }))).siteSpace.siteSpace.condition).toBe(
          condition
        )
        const untouched = yield* run(siteSpaces.updateSiteSpace(site.id, c.siteSpace.id, { path: "ref" }))
        expect(untouched.siteSpace.siteSpace).toMatchObject({ path: "ref", condition })
        expect((yield* run(siteSpaces.updateSiteSpace(site.id, c.siteSpace.id, { condition: null }))).siteSpace.siteSpace.condition)
          .toBeNull()

        expect(yield* tag(run(siteSpaces.addSiteSpace(site.id, { spaceId: guide1! })))).toBe("Conflict")
        const sectionless = yield* Effect.either(
          run(siteSpaces.addSiteSpace(site.id, { spaceId: api!, sectionId: SiteSectionId.make(uniqueId("sec")) }))
        )
        expect(failureTag(sectionless)).toBe("InvalidInput")
        expect(invalidField(sectionless)).toBe("sectionId")

        // Deleting the default promotes the next one.
        yield* run(siteSpaces.removeSiteSpace(site.id, a.siteSpace.id))
        const listed = yield* run(siteSpaces.listSiteSpaces(site.id, {}, first()))
        expect(listed.items.map((v) => [v.siteSpace.id, v.default])).toEqual([[b.siteSpace.id, true], [c.siteSpace.id, false]])
        expect((yield* run(sites.get(site.id))).site.defaultSiteSpaceId).toBe(b.siteSpace.id)
        expect(listed.site.siteSpaceCount).toBe(2)
      }))

    it.effect("site spaces: the last site space of a section stays (PreconditionFailed)", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const siteSections = yield* SiteSections
        const { organization, run, spaces: [one, two] } = yield* withSpaces("One", "Two")
        const { site } = yield* run(sites.create(organization.id, { title: "Docs" }))
        const { section } = yield* run(siteSections.addSection(site.id, { spaceId: one!, title: "Guides" }))
        const only = section.siteSpaces[0]!
        expect(failureTag(yield* Effect.either(run(siteSpaces.removeSiteSpace(site.id, only.siteSpace.id))))).toBe("PreconditionFailed")
        const second = yield* run(siteSpaces.addSiteSpace(site.id, { spaceId: two!, sectionId: section.section.id }))
        yield* run(siteSpaces.removeSiteSpace(site.id, only.siteSpace.id))
        const left = yield* run(siteSpaces.listSiteSpaces(site.id, {}, first()))
        expect(left.items.map((v) => [v.siteSpace.id, v.default])).toEqual([[second.siteSpace.siteSpace.id, true]])
        expect(failureTag(yield* Effect.either(run(siteSpaces.removeSiteSpace(site.id, second.siteSpace.siteSpace.id))))).toBe(
          "PreconditionFailed"
        )
      }))

    it.effect("site spaces: a soft-deleted space's are hidden until restored, and a purged one's are dropped", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const publishing = yield* SitePublishing
        const lifecycle = yield* SpaceLifecycle
        const { organization, run, spaces: [one, two, three] } = yield* withSpaces("One", "Two", "Three")
        const { site } = yield* run(sites.create(organization.id, { title: "Docs", spaces: [one!, two!, three!] }))
        const visible = Effect.gen(function*() {
          const listed = yield* run(siteSpaces.listSiteSpaces(site.id, {}, first()))
          const pub = yield* run(publishing.published(site.id))
          const view = yield* run(sites.get(site.id))
          const listedSite = (yield* run(sites.list(organization.id, {}, first()))).items.find((v) => v.site.id === site.id)!
          expect(pub.structure.type).toBe("siteSpaces")
          const pubItems = pub.structure.type === "siteSpaces" ? pub.structure.items : []
          expect(spaceIdsOf(pubItems)).toEqual(spaceIdsOf(listed.items))
          expect(view.siteSpaceCount).toBe(listed.items.length)
          expect(listedSite.siteSpaceCount).toBe(listed.items.length)
          expect(listed.count).toBe(listed.items.length)
          return listed.items.map((v) => [v.siteSpace.spaceId, v.default])
        })
        expect(yield* visible).toEqual([[one, true], [two, false], [three, false]])
        // The default's space deleted: the next one is shown as the default.
        yield* run(lifecycle.delete(one!))
        expect(yield* visible).toEqual([[two, true], [three, false]])
        yield* run(lifecycle.delete(three!))
        expect(yield* visible).toEqual([[two, true]])
        yield* run(lifecycle.restore(one!))
        expect(yield* visible).toEqual([[one, true], [two, false]])

        yield* TestClock.adjust(Duration.days(8))
        yield* lifecycle.purgeExpired
        expect(yield* visible).toEqual([[one, true], [two, false]])
        const stored = yield* (yield* SiteStructureRepository).load(site.id)
        expect(stored.siteSpaces.map((s) => s.spaceId).sort()).toEqual([one!, two!].sort())
        expect(yield* (yield* SiteRepository).holding(three!)).toEqual([])
        // The purged space was not the default: the default stays.
        expect((yield* run(sites.get(site.id))).site.defaultSiteSpaceId).toBe(
          stored.siteSpaces.find((s) => s.spaceId === one)!.id
        )
      }))

    it.effect("reads of several contexts at once: a site's tree with its spaces and collections, the spaces of sites", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const siteSections = yield* SiteSections
        const lifecycle = yield* SpaceLifecycle
        const collections = yield* Collections
        const { organization, run, spaces: [one, two, three] } = yield* withSpaces("One", "Two", "Three")
        yield* run(collections.create(organization.id, { title: "Guides" }))
        yield* run(collections.create(organization.id, { title: "References" }))
        const { site } = yield* run(sites.create(organization.id, { title: "Docs", spaces: [one!, two!] }))
        const { section } = yield* run(siteSections.addSection(site.id, { spaceId: three!, title: "More" }))
        yield* run(siteSections.addGroup(site.id, { title: "Grouped", sections: [section.section.id] }))
        const { site: empty } = yield* run(sites.create(organization.id, { title: "Empty" }))
        yield* run(lifecycle.delete(two!))

        const changeRequests = yield* ChangeRequests
        yield* run(changeRequests.create(one!, { subject: "Counted" }))
        const tree = yield* sameAsOneByOne(
          Effect.flatMap(SiteTreeRowReads, (reads) => reads.tree(site.id, organization.id)),
          SiteTreeRowReadsOneByOne,
          (read) => ({
            structure: {
              sections: byId(read.structure.sections),
              groups: byId(read.structure.groups),
              siteSpaces: byId(read.structure.siteSpaces)
            },
            spaces: byId(read.spaces),
            collections: read.collections,
            facts: orderedFactRows(read.facts)
          })
        )
        expect(tree.structure).toEqual(yield* (yield* SiteStructureRepository).load(site.id))
        // The deleted space's site space stays in storage and its space is read with the rest; the reading hides it.
        expect(tree.spaces.map((s) => s.id).sort()).toEqual([one!, two!, three!].sort())
        expect(tree.collections.map((c) => c.title).sort()).toEqual(["Guides", "References"])
        expect(tree.structure.groups.map((g) => g.title)).toEqual(["Grouped"])
        // What later contexts keep of those spaces, as `SpaceFactRows` reads it.
        expect(orderedFactRows(tree.facts)).toEqual(orderedFactRows(yield* (yield* SpaceFactRows).of([one!, two!, three!])))
        expect([...factRowsOf(tree.facts).changeRequests.keys()]).toEqual([one])
        expect(factRowsOf(tree.facts).sites.sites.map((s) => s.id)).toEqual([site.id])
        // And what a read of the site shows of them.
        const shownOne = run(Effect.map(
          siteSpaces.listSiteSpaces(site.id, {}, first()),
          (listed) => listed.items.find((v) => v.siteSpace.spaceId === one)!.space
        ))
        expect(countsOf(yield* shownOne).changeRequests).toBe(1)
        expect(publishedOf(yield* shownOne)).toBeUndefined()
        yield* run(sites.publish(site.id))
        expect(publishedOf(yield* shownOne)).toMatchObject({ organization: organization.id, site: site.id })

        // Pairs come in no particular order.
        const pairs = (rows: ReadonlyArray<{ readonly siteId: string; readonly spaceId: string }>) =>
          rows.map((h) => [h.siteId, h.spaceId]).sort((a, b) => (`${a}` < `${b}` ? -1 : 1))
        const held = yield* sameAsOneByOne(
          Effect.flatMap(SiteReads, (reads) => reads.spacesOf([site.id, empty.id, SiteId.make(uniqueId("site"))])),
          SiteReadsOneByOne,
          (read) => ({ held: pairs(read.held), spaces: byId(read.spaces) })
        )
        expect(pairs(held.held)).toEqual(
          [one!, two!, three!].sort().map((spaceId) => [site.id, spaceId])
        )
        expect(held.spaces.map((s) => s.id).sort()).toEqual([one!, two!, three!].sort())
        expect(yield* Effect.flatMap(SiteReads, (reads) => reads.spacesOf([]))).toEqual({ held: [], spaces: [] })
        // Made at the same instant: the two sites list in either order.
        const counted = (yield* run(sites.list(organization.id, {}, first()))).items.map((v) => [v.site.id, v.siteSpaceCount])
        expect(new Map(counted as Array<[string, number]>)).toEqual(new Map([[site.id, 2], [empty.id, 0]]))
      }))

    it.effect("site spaces: purging the default's space promotes the next one in storage", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const lifecycle = yield* SpaceLifecycle
        const { organization, run, spaces: [one, two] } = yield* withSpaces("One", "Two")
        const { site } = yield* run(sites.create(organization.id, { title: "Docs", spaces: [one!, two!] }))
        yield* run(lifecycle.delete(one!))
        yield* TestClock.adjust(Duration.days(8))
        yield* lifecycle.purgeExpired
        const stored = yield* (yield* SiteStructureRepository).load(site.id)
        expect(stored.siteSpaces.map((s) => s.spaceId)).toEqual([two])
        expect((yield* run(sites.get(site.id))).site.defaultSiteSpaceId).toBe(stored.siteSpaces[0]!.id)
        expect((yield* run(siteSpaces.listSiteSpaces(site.id, { default: true }, first()))).items.map((v) => v.siteSpace.spaceId))
          .toEqual([two])
      }))

    // Use cases: sections and groups.

    it.effect("sections: the first one moves the root's site spaces into a default section named after the site", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const siteSections = yield* SiteSections
        const publishing = yield* SitePublishing
        const { organization, run, spaces: [one, two, three] } = yield* withSpaces("One", "Two", "Three")
        const { site } = yield* run(sites.create(organization.id, { title: "Acme Handbook", spaces: [one!, two!] }))
        const roots = yield* run(siteSpaces.listSiteSpaces(site.id, {}, first()))
        const [r1, r2] = roots.items.map((v) => v.siteSpace.id)
        // Make the second the default first: the moved section keeps it.
        yield* run(sites.update(site.id, { defaultSiteSpace: r2! }))
        const added = yield* run(siteSections.addSection(site.id, { spaceId: three!, title: "API Reference" }))
        expect(added.section.section).toMatchObject({ title: "API Reference", path: "api-reference", groupId: null })
        expect(added.section.default).toBe(false)
        expect(added.section.path).toEqual(["api-reference"])
        expect(added.section.siteSpaces.map((v) => [v.siteSpace.spaceId, v.default])).toEqual([[three, true]])

        const sections = yield* run(siteSections.listSections(site.id, undefined, first()))
        expect(sections.items.map((s) => [s.section.title, s.section.path, s.default])).toEqual([
          ["Acme Handbook", "acme-handbook", true],
          ["API Reference", "api-reference", false]
        ])
        const moved = sections.items[0]!
        expect(moved.siteSpaces.map((v) => [v.siteSpace.id, v.default])).toEqual([[r1, false], [r2, true]])
        expect(moved.path).toEqual([])
        const after = yield* run(sites.get(site.id))
        expect(after.site).toMatchObject({ defaultSiteSpaceId: null, defaultSectionId: moved.section.id })
        expect(after.siteSpaceCount).toBe(3)
        const pub = yield* run(publishing.published(site.id))
        expect(pub.structure.type).toBe("sections")

        // A site space added with no section goes to the default section.
        const four = (yield* run((yield* Spaces).create(organization.id, { title: "Four" }))).space.id
        const toDefault = yield* run(siteSpaces.addSiteSpace(site.id, { spaceId: four }))
        expect(toDefault.siteSpace.siteSpace.sectionId).toBe(moved.section.id)
        expect(toDefault.siteSpace.path).toEqual(["four"])
        const siteDefault = yield* run(siteSpaces.listSiteSpaces(site.id, { default: true }, first()))
        expect(siteDefault.items.map((v) => v.siteSpace.id)).toEqual([r2])
      }))

    it.effect("sections: on an empty site the first is the default; paths conflict; the last one's removal empties the site", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const siteSections = yield* SiteSections
        const publishing = yield* SitePublishing
        const { organization, run, spaces: [one, two, three] } = yield* withSpaces("One", "Two", "Three")
        const { site } = yield* run(sites.create(organization.id, { title: "Docs" }))
        const a = yield* run(siteSections.addSection(site.id, { spaceId: one!, title: "Guides" }))
        expect(a.section.default).toBe(true)
        expect((yield* run(siteSections.listSections(site.id, undefined, first()))).items).toHaveLength(1)
        expect(failureTag(yield* Effect.either(run(siteSections.addSection(site.id, { spaceId: two!, title: "GUIDES" }))))).toBe(
          "Conflict"
        )
        const b = yield* run(siteSections.addSection(site.id, { spaceId: two!, title: "Reference" }))
        expect(failureTag(yield* Effect.either(run(siteSections.updateSection(site.id, b.section.section.id, { path: "guides" }))))).toBe(
          "Conflict"
        )
        // A space appears once per section, but may be in several sections.
        yield* run(siteSpaces.addSiteSpace(site.id, { spaceId: one!, sectionId: b.section.section.id }))
        expect(
          failureTag(yield* Effect.either(run(siteSpaces.addSiteSpace(site.id, { spaceId: one!, sectionId: b.section.section.id }))))
        ).toBe("Conflict")
        yield* run(siteSpaces.addSiteSpace(site.id, { spaceId: three!, sectionId: a.section.section.id }))

        // Deleting the default section promotes the next; deleting the last empties the site.
        yield* run(siteSections.removeSection(site.id, a.section.section.id))
        const rest = yield* run(siteSections.listSections(site.id, undefined, first()))
        expect(rest.items.map((s) => [s.section.id, s.default])).toEqual([[b.section.section.id, true]])
        expect(rest.site.siteSpaceCount).toBe(2)
        yield* run(siteSections.removeSection(site.id, b.section.section.id))
        const empty = yield* run(sites.get(site.id))
        expect(empty.site).toMatchObject({ defaultSectionId: null, defaultSiteSpaceId: null })
        expect(empty.siteSpaceCount).toBe(0)
        expect((yield* run(siteSpaces.listSiteSpaces(site.id, {}, first()))).items).toEqual([])
        expect((yield* run(siteSections.listSections(site.id, undefined, first()))).items).toEqual([])
        const pub = yield* run(publishing.published(site.id))
        expect(pub.structure).toEqual({ type: "siteSpaces", items: [] })
        expect(yield* (yield* SiteStructureRepository).load(site.id)).toEqual({ sections: [], groups: [], siteSpaces: [] })
        // Back to plain site spaces.
        const root = yield* run(siteSpaces.addSiteSpace(site.id, { spaceId: one! }))
        expect(root.siteSpace).toMatchObject({ default: true, path: [] })
        expect(root.siteSpace.siteSpace.sectionId).toBeNull()
      }))

    it.effect("groups: need sections; removal returns members to the root in the group's place; removing a non-member is not found", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSections = yield* SiteSections
        const publishing = yield* SitePublishing
        const { organization, run, spaces: [one, two, three, four] } = yield* withSpaces("One", "Two", "Three", "Four")
        const { site } = yield* run(sites.create(organization.id, { title: "Docs" }))
        expect(failureTag(yield* Effect.either(run(siteSections.addGroup(site.id, { title: "Group" }))))).toBe("PreconditionFailed")
        const s = [] as Array<SiteSectionId>
        for (const [i, spaceId] of [one!, two!, three!, four!].entries()) {
          s.push((yield* run(siteSections.addSection(site.id, { spaceId, title: `Section ${i + 1}` }))).section.section.id)
        }
        const [s1, s2, s3, s4] = s as [SiteSectionId, SiteSectionId, SiteSectionId, SiteSectionId]
        const { group } = yield* run(siteSections.addGroup(site.id, { title: "Group", sections: [s3, s1] }))
        expect(group.sections.map((x) => x.section.id)).toEqual([s3, s1])
        // The group sits at the end of the root: s2, s4, group(s3, s1).
        yield* run(siteSections.moveGroup(site.id, group.group.id, { after: { type: "site-section", id: s2 } }))
        const order = Effect.map(run(publishing.published(site.id)), (pub) =>
          pub.structure.type === "sections"
            ? pub.structure.items.map((item) =>
              "section" in item ? item.section.section.id : `group:${item.group.sections.map((x) => x.section.id).join(",")}`
            )
            : [])
        expect(yield* order).toEqual([s2, `group:${s3},${s1}`, s4])
        expect((yield* run(siteSections.listSections(site.id, undefined, first()))).items.map((x) => x.section.id)).toEqual([
          s2,
          s3,
          s1,
          s4
        ])

        const notMember = yield* Effect.either(run(siteSections.removeSectionFromGroup(site.id, group.group.id, s2)))
        expect(failureTag(notMember)).toBe("NotFound")
        expect(yield* order).toEqual([s2, `group:${s3},${s1}`, s4])
        // Adding a member again changes nothing.
        const same = yield* run(siteSections.addSectionToGroup(site.id, group.group.id, s3))
        expect(same.group.sections.map((x) => x.section.id)).toEqual([s3, s1])

        yield* run(siteSections.removeGroup(site.id, group.group.id))
        expect(yield* order).toEqual([s2, s3, s1, s4])
        expect((yield* run(siteSections.listGroups(site.id, first()))).items).toEqual([])
        const stored = yield* (yield* SiteStructureRepository).load(site.id)
        expect(stored.groups).toEqual([])
        expect(stored.sections.every((x) => x.groupId === null)).toBe(true)
      }))

    // Use cases: share links and share keys.

    it.effect("share keys: only an active key of this published share-link site is carried; others are ignored; bad ones refused", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const siteSpaces = yield* SiteSpaces
        const shareLinks = yield* ShareLinks
        const publishing = yield* SitePublishing
        const { organization, run, spaces: [one] } = yield* withSpaces("One")
        const { site } = yield* run(sites.create(organization.id, { title: "Docs", visibility: "share-link", spaces: [one!] }))
        const other = yield* run(sites.create(organization.id, { title: "Other", visibility: "share-link" }))
        const active = (yield* run(shareLinks.createShareLink(site.id, { name: "Partners" }))).link
        // Links list by creation: the second one a minute later.
        yield* TestClock.adjust(Duration.minutes(1))
        const inactive = (yield* run(shareLinks.createShareLink(site.id, { name: "Old" }))).link
        const foreign = (yield* run(shareLinks.createShareLink(other.site.id, { name: "Theirs" }))).link
        yield* run(shareLinks.updateShareLink(site.id, inactive.id, { active: false }))
        for (const link of [active, inactive, foreign]) {
          expect(link.key).toMatch(/^[A-Za-z0-9]{32}$/)
          expect(link.active).toBe(true)
        }
        expect(new Set([active.key, inactive.key, foreign.key]).size).toBe(3)
        expect((yield* run(shareLinks.listShareLinks(site.id, undefined, first()))).items.map((l) => [l.id, l.active])).toEqual([
          [active.id, true],
          [inactive.id, false]
        ])

        const keyOf = (key: string) =>
          Effect.gen(function*() {
            const fromGet = (yield* run(sites.get(site.id, key))).shareKey
            const fromList = (yield* run(siteSpaces.listSiteSpaces(site.id, { shareKey: key }, first()))).site.shareKey
            expect(fromList).toBe(fromGet)
            return fromGet
          })
        // Unpublished: ignored.
        expect(yield* keyOf(active.key)).toBeUndefined()
        yield* run(sites.publish(site.id))
        yield* run(sites.publish(other.site.id))
        expect(yield* keyOf(active.key)).toBe(active.key)
        expect((yield* run(publishing.published(site.id, active.key))).site.shareKey).toBe(active.key)
        expect(yield* keyOf(inactive.key)).toBeUndefined()
        expect(yield* keyOf(foreign.key)).toBeUndefined()
        expect(yield* keyOf("Unknown0key0000000000000000000000")).toBeUndefined()
        expect(yield* keyOf(active.key.toLowerCase() === active.key ? active.key.toUpperCase() : active.key.toLowerCase()))
          .toBeUndefined()
        expect((yield* run(sites.get(site.id))).shareKey).toBeUndefined()
        const bad = yield* Effect.either(run(sites.get(site.id, "bad key!")))
        expect(failureTag(bad)).toBe("InvalidInput")
        expect(invalidField(bad)).toBe("shareKey")
        expect(failureTag(yield* Effect.either(run(siteSpaces.listSiteSpaces(site.id, { shareKey: "bad key!" }, first()))))).toBe(
          "InvalidInput"
        )
        // Another visibility: ignored.
        yield* run(sites.update(site.id, { visibility: "public" }))
        expect(yield* keyOf(active.key)).toBeUndefined()
        yield* run(sites.update(site.id, { visibility: "share-link" }))
        expect(yield* keyOf(active.key)).toBe(active.key)
        // Deactivated or deleted: ignored at once.
        yield* run(shareLinks.updateShareLink(site.id, active.id, { active: false }))
        expect(yield* keyOf(active.key)).toBeUndefined()
        yield* run(shareLinks.updateShareLink(site.id, active.id, { active: true }))
        expect(yield* keyOf(active.key)).toBe(active.key)
        yield* run(shareLinks.removeShareLink(site.id, active.id))
        expect(yield* keyOf(active.key)).toBeUndefined()
        expect(failureTag(yield* Effect.either(run(shareLinks.removeShareLink(other.site.id, inactive.id))))).toBe("NotFound")
      }))

    // Use cases: adaptive schema and publishing auth.

    it.effect("adaptive schema: the default before a PUT, then what was PUT; an invalid one names its pointer", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const publishing = yield* SitePublishing
        const { organization, run } = yield* adminOfNewOrganization
        const { site } = yield* run(sites.create(organization.id, { title: "Docs" }))
        const before = yield* run(publishing.adaptiveSchema(site.id))
        expect(before).toEqual({ jsonSchema: { type: "object", properties: {}, additionalProperties: false }, updatedAt: site.createdAt })
        const jsonSchema = {
          type: "object",
          properties: {
            plan: { type: "string", description: "The plan", enum: ["free", "pro"] },
            beta: { type: "boolean", description: "In the beta" },
            unsigned: {
              type: "object",
              description: "Unsigned claims of the site visitor.",
              properties: { seats: { type: "number", description: "Seats" } },
              additionalProperties: false
            }
          },
          additionalProperties: false
        }
        yield* TestClock.adjust(Duration.minutes(1))
        const put = yield* run(publishing.setAdaptiveSchema(site.id, { jsonSchema }))
        expect(put.jsonSchema).toEqual(jsonSchema)
        const got = yield* run(publishing.adaptiveSchema(site.id))
        expect(got).toEqual({ jsonSchema, updatedAt: new Date(site.createdAt.getTime() + 60_000) })
        // Read back in the order written, on every storage: segments take the claims in this order.
        expect(Object.keys((got.jsonSchema as typeof jsonSchema).properties)).toEqual(["plan", "beta", "unsigned"])

        const invalid = (schema: unknown) =>
          Effect.map(Effect.either(run(publishing.setAdaptiveSchema(site.id, { jsonSchema: schema }))), invalidField)
        expect(yield* invalid({ ...jsonSchema, properties: { plan: { ...jsonSchema.properties.plan, enum: ["pro", "pro"] } } })).toBe(
          "jsonSchema/properties/plan/enum/1"
        )
        expect(yield* invalid({ ...jsonSchema, additionalProperties: true })).toBe("jsonSchema/additionalProperties")
        expect(yield* invalid({ ...jsonSchema, properties: { plan: { type: "string" } } })).toBe(
          "jsonSchema/properties/plan/description"
        )
        expect((yield* run(publishing.adaptiveSchema(site.id))).jsonSchema).toEqual(jsonSchema)
      }))

    it.effect("publishing auth: a 32-byte base64url secret, regenerated on demand; fallback and logout URLs set and cleared", () =>
      Effect.gen(function*() {
        const sites = yield* Sites
        const publishing = yield* SitePublishing
        const { organization, run } = yield* adminOfNewOrganization
        const { site } = yield* run(sites.create(organization.id, { title: "Docs" }))
        const auth = yield* run(publishing.publishingAuth(site.id))
        // 43 base64url characters hold 258 bits: the last one carries 2 bits of the 32nd byte and 4 zero bits.
        expect(auth.privateKey).toMatch(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/)
        expect(auth).toMatchObject({ fallbackURL: null, logoutURL: null })
        const other = yield* run(sites.create(organization.id, { title: "Other" }))
        expect((yield* run(publishing.publishingAuth(other.site.id))).privateKey).not.toBe(auth.privateKey)

        const regenerated = yield* run(publishing.regeneratePublishingAuth(site.id))
        expect(regenerated.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/)
        expect(regenerated.privateKey).not.toBe(auth.privateKey)
        expect((yield* run(publishing.publishingAuth(site.id))).privateKey).toBe(regenerated.privateKey)

        const set = yield* run(
          publishing.updatePublishingAuth(site.id, { fallbackURL: "https://acme.test/login", logoutURL: "https://acme.test/bye" })
        )
        expect(set).toEqual({
          privateKey: regenerated.privateKey,
          fallbackURL: "https://acme.test/login",
          logoutURL: "https://acme.test/bye"
        })
        const kept = yield* run(publishing.updatePublishingAuth(site.id, { logoutURL: null }))
        expect(kept).toEqual({ privateKey: regenerated.privateKey, fallbackURL: "https://acme.test/login", logoutURL: null })
        expect(yield* run(publishing.publishingAuth(site.id))).toEqual(kept)
        yield* run(publishing.updatePublishingAuth(site.id, { fallbackURL: null }))
        expect(yield* run(publishing.publishingAuth(site.id))).toEqual({
          privateKey: regenerated.privateKey,
          fallbackURL: null,
          logoutURL: null
        })
        expect(failureTag(yield* Effect.either(run(publishing.updatePublishingAuth(site.id, { fallbackURL: "ftp://x" }))))).toBe(
          "InvalidInput"
        )
      }))
  })
