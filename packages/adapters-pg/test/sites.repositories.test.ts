import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import {
  Conflict,
  OrganizationRepository,
  type ShareLink,
  type ShareLinkId,
  ShareLinkRepository,
  type Site,
  type SiteId,
  SiteRepository,
  type SiteSection,
  type SiteSectionGroup,
  type SiteSectionGroupId,
  type SiteSectionId,
  type SiteSpace,
  type SiteSpaceId,
  SiteStructureRepository,
  UnitOfWork
} from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { migrations } from "../src/PgStorage.js"
import { PgOrganizations } from "../src/organizations/index.js"
import { migrateTo, PgShared } from "../src/shared/index.js"
import { PgSites, sitesMigrations } from "../src/sites/index.js"
import * as F from "./fixtures.js"
import { sqlClients } from "./helpers.js"

// Every migration once, the sites' included whether or not Migrations.ts lists them yet.
const allMigrations = [...migrations, ...sitesMigrations.filter((m) => !migrations.some((known) => known.id === m.id))]

const storage = (client: () => Layer.Layer<SqlClient.SqlClient>) =>
  Layer.mergeAll(PgSites, PgOrganizations, PgShared).pipe(
    Layer.provideMerge(Layer.effectDiscard(Effect.orDie(migrateTo(allMigrations)))),
    Layer.provideMerge(client())
  )

const siteId = (id: string) => id as SiteId
const sectionId = (id: string) => id as SiteSectionId
const groupId = (id: string) => id as SiteSectionGroupId
const siteSpaceId = (id: string) => id as SiteSpaceId
const shareLinkId = (id: string) => id as ShareLinkId

const site = (organization: string, id: string, fields: Partial<Site> = {}): Site => ({
  id: siteId(id),
  organizationId: F.organizationId(organization),
  type: "basic",
  title: `Site ${id}`,
  visibility: "public",
  published: false,
  basename: null,
  proxy: null,
  adaptiveContent: false,
  defaultSiteSpaceId: null,
  defaultSectionId: null,
  publishingAuth: { privateKey: `key-${id}`, fallbackURL: null, logoutURL: null },
  adaptiveSchema: null,
  createdAt: new Date(1_700_000_000_000),
  updatedAt: new Date(1_700_000_000_000),
  ...fields
})

const section = (site: string, id: string, fields: Partial<SiteSection> = {}): SiteSection => ({
  id: sectionId(id),
  siteId: siteId(site),
  title: `Section ${id}`,
  localizedTitle: {},
  description: null,
  localizedDescription: {},
  icon: null,
  path: id,
  condition: null,
  groupId: null,
  position: "a0",
  defaultSiteSpaceId: null,
  createdAt: new Date(1_700_000_000_000),
  ...fields
})

const group = (site: string, id: string, fields: Partial<SiteSectionGroup> = {}): SiteSectionGroup => ({
  id: groupId(id),
  siteId: siteId(site),
  title: `Group ${id}`,
  localizedTitle: {},
  icon: null,
  position: "a1",
  createdAt: new Date(1_700_000_000_000),
  ...fields
})

const siteSpace = (site: string, id: string, space: string, fields: Partial<SiteSpace> = {}): SiteSpace => ({
  id: siteSpaceId(id),
  siteId: siteId(site),
  sectionId: null,
  spaceId: F.spaceId(space),
  path: id,
  condition: null,
  hidden: false,
  localizedTitle: {},
  position: "a0",
  createdAt: new Date(1_700_000_000_000),
  ...fields
})

const shareLink = (site: string, id: string, fields: Partial<ShareLink> = {}): ShareLink => ({
  id: shareLinkId(id),
  siteId: siteId(site),
  name: `Link ${id}`,
  key: `KEY${id}`,
  active: true,
  createdAt: new Date(1_700_000_000_000),
  ...fields
})

const byId = <A extends { readonly id: string }>(items: ReadonlyArray<A>) => [...items].sort((a, b) => a.id < b.id ? -1 : 1)

const everything = { limit: 1000, after: Option.none() }

const suite = (name: string, client: () => Layer.Layer<SqlClient.SqlClient>) =>
  layer(storage(client), { timeout: "60 seconds" })(name, (it) => {
    const organization = (id: string) => Effect.flatMap(OrganizationRepository, (repo) => repo.insert(F.organization(id)))

    describe("sites", () => {
      it.effect("round-trips every field of a site, on insert and on update", () =>
        Effect.gen(function*() {
          const sites = yield* SiteRepository
          yield* organization("round-org")
          const plain = site("round-org", "round-plain", { createdAt: new Date(1_700_000_000_123) })
          yield* sites.insert(plain)
          expect(yield* sites.findById(plain.id)).toEqual(Option.some(plain))

          const full: Site = {
            ...plain,
            type: "ultimate",
            title: "Every field",
            visibility: "visitor-auth",
            published: true,
            basename: "Docs",
            proxy: "example.com/docs",
            adaptiveContent: true,
            defaultSiteSpaceId: siteSpaceId("round-ss"),
            defaultSectionId: sectionId("round-section"),
            publishingAuth: {
              privateKey: "secret",
              fallbackURL: "https://example.com/login",
              logoutURL: "https://example.com/logout"
            },
            adaptiveSchema: {
              jsonSchema: { type: "object", properties: { plan: { type: "string", enum: ["free", "pro"] } } },
              updatedAt: new Date(1_700_000_000_456)
            },
            updatedAt: new Date(1_700_000_000_789)
          }
          yield* sites.update(full)
          expect(yield* sites.findById(plain.id)).toEqual(Option.some(full))

          yield* sites.update(plain)
          expect(yield* sites.findById(plain.id)).toEqual(Option.some(plain))
          expect(yield* sites.findById(siteId("round-missing"))).toEqual(Option.none())
        }))

      it.effect("refuses a taken basename (per organization) or proxy (per instance), case-insensitively", () =>
        Effect.gen(function*() {
          const sites = yield* SiteRepository
          yield* organization("names-a")
          yield* organization("names-b")
          yield* sites.insert(site("names-a", "names-1", { basename: "Docs", proxy: "example.com/docs" }))

          const sameBasename = yield* Effect.flip(sites.insert(site("names-a", "names-2", { basename: "docs" })))
          expect(sameBasename).toBeInstanceOf(Conflict)
          expect(sameBasename.reason).toBe("The basename docs is taken in this organization")
          // Another organization may use it.
          yield* sites.insert(site("names-b", "names-3", { basename: "DOCS" }))

          const sameProxy = yield* Effect.flip(sites.insert(site("names-b", "names-4", { proxy: "EXAMPLE.com/docs" })))
          expect(sameProxy.reason).toBe("The proxy EXAMPLE.com/docs is taken")
          const sameId = yield* Effect.flip(sites.insert(site("names-a", "names-1")))
          expect(sameId.reason).toBe("A site with id names-1 exists already")

          // On update too, and the unit of work goes on after a Conflict it handled.
          const uow = yield* UnitOfWork
          const second = site("names-a", "names-5")
          const outcome = yield* uow.transaction(Effect.gen(function*() {
            yield* sites.insert(second)
            const conflict = yield* Effect.flip(sites.update({ ...second, basename: "dOcS" }))
            yield* sites.update({ ...second, title: "After the conflict" })
            return conflict.reason
          }))
          expect(outcome).toBe("The basename dOcS is taken in this organization")
          expect(Option.map(yield* sites.findById(second.id), (found) => [found.title, found.basename])).toEqual(
            Option.some(["After the conflict", null])
          )
          expect(yield* sites.findById(siteId("names-2"))).toEqual(Option.none())
          expect(yield* sites.findById(siteId("names-4"))).toEqual(Option.none())
        }))

      it.effect("lists an organization's sites by creation, filtered, page by page", () =>
        Effect.gen(function*() {
          const sites = yield* SiteRepository
          const structure = yield* SiteStructureRepository
          yield* organization("list-org")
          yield* organization("list-other")
          const at = (ms: number) => new Date(1_700_000_000_000 + ms)
          const a = site("list-org", "list-a", { title: "Public 100% docs", published: true, createdAt: at(3) })
          const b = site("list-org", "list-b", { title: "Internal_docs", type: "premium", createdAt: at(1) })
          const c = site("list-org", "list-c", { title: "Other", type: "ultimate", published: true, createdAt: at(1) })
          for (const s of [a, b, c, site("list-other", "list-d", { title: "Public docs" })]) yield* sites.insert(s)
          yield* structure.write({
            sections: { put: [], removed: [] },
            groups: { put: [], removed: [] },
            siteSpaces: {
              put: [siteSpace("list-a", "list-ss-a", "list-space"), siteSpace("list-c", "list-ss-c", "list-space")],
              removed: []
            }
          })
          const ids = (filter: Parameters<typeof sites.list>[1]) =>
            Effect.map(sites.list(F.organizationId("list-org"), filter, everything), (page) => [page.items.map((s) => s.id), page.count])

          expect(yield* ids({})).toEqual([["list-b", "list-c", "list-a"], 3])
          expect(yield* ids({ title: "DOCS" })).toEqual([["list-b", "list-a"], 2])
          expect(yield* ids({ title: "100%" })).toEqual([["list-a"], 1])
          expect(yield* ids({ title: "l_d" })).toEqual([["list-b"], 1])
          expect(yield* ids({ title: "%" })).toEqual([["list-a"], 1])
          expect(yield* ids({ published: true })).toEqual([["list-c", "list-a"], 2])
          expect(yield* ids({ published: false })).toEqual([["list-b"], 1])
          expect(yield* ids({ types: ["premium", "ultimate"] })).toEqual([["list-b", "list-c"], 2])
          expect(yield* ids({ types: [] })).toEqual([["list-b", "list-c", "list-a"], 3])
          expect(yield* ids({ spaceId: F.spaceId("list-space") })).toEqual([["list-c", "list-a"], 2])
          expect(yield* ids({ spaceId: F.spaceId("list-space"), published: true, title: "public" })).toEqual([["list-a"], 1])

          const first = yield* sites.list(F.organizationId("list-org"), {}, { limit: 2, after: Option.none() })
          expect(first.items.map((s) => s.id)).toEqual(["list-b", "list-c"])
          expect(first.count).toBe(3)
          expect(first.next).toEqual(Option.some([at(1).getTime(), "list-c"]))
          const second = yield* sites.list(F.organizationId("list-org"), {}, { limit: 2, after: first.next })
          expect(second.items).toEqual([a])
          expect(second.next).toEqual(Option.none())
        }))

      it.effect("removes a site with everything under it, and finds the sites holding a space", () =>
        Effect.gen(function*() {
          const sites = yield* SiteRepository
          const structure = yield* SiteStructureRepository
          const links = yield* ShareLinkRepository
          const sql = yield* SqlClient.SqlClient
          yield* organization("remove-org")
          for (const id of ["remove-a", "remove-b"]) yield* sites.insert(site("remove-org", id))
          for (const id of ["remove-a", "remove-b"]) {
            yield* structure.write({
              sections: { put: [section(id, `${id}-section`)], removed: [] },
              groups: { put: [group(id, `${id}-group`)], removed: [] },
              siteSpaces: {
                put: [
                  siteSpace(id, `${id}-ss1`, "remove-space", { sectionId: sectionId(`${id}-section`) }),
                  siteSpace(id, `${id}-ss2`, "remove-space")
                ],
                removed: []
              }
            })
            yield* links.insert(shareLink(id, `${id}-link`))
          }
          expect(yield* sites.holding(F.spaceId("remove-space"))).toEqual(["remove-a", "remove-b"])
          expect(yield* structure.spacesOf([siteId("remove-a")])).toEqual([
            { siteId: "remove-a", spaceId: "remove-space" },
            { siteId: "remove-a", spaceId: "remove-space" }
          ])

          yield* sites.remove(siteId("remove-a"))
          expect(yield* sites.findById(siteId("remove-a"))).toEqual(Option.none())
          expect(yield* structure.load(siteId("remove-a"))).toEqual({ sections: [], groups: [], siteSpaces: [] })
          expect(yield* links.findById(shareLinkId("remove-a-link"))).toEqual(Option.none())
          const left = yield* sql<{ readonly count: number }>`SELECT
            (SELECT count(*) FROM site_sections WHERE site_id = 'remove-a')
            + (SELECT count(*) FROM site_section_groups WHERE site_id = 'remove-a')
            + (SELECT count(*) FROM site_spaces WHERE site_id = 'remove-a')
            + (SELECT count(*) FROM site_share_links WHERE site_id = 'remove-a') AS count`
          expect(Number(left[0]?.count)).toBe(0)
          expect(yield* sites.holding(F.spaceId("remove-space"))).toEqual(["remove-b"])
          expect((yield* structure.load(siteId("remove-b"))).siteSpaces).toHaveLength(2)
          expect(yield* links.findById(shareLinkId("remove-b-link"))).toEqual(Option.some(shareLink("remove-b", "remove-b-link")))
        }))

      it.effect("locks a site in a unit of work", () =>
        Effect.gen(function*() {
          const sites = yield* SiteRepository
          const uow = yield* UnitOfWork
          yield* organization("lock-org")
          const locked = site("lock-org", "lock-a")
          yield* sites.insert(locked)
          yield* uow.transaction(Effect.zipRight(sites.lock(locked.id), sites.update({ ...locked, title: "Locked" })))
          expect(Option.map(yield* sites.findById(locked.id), (s) => s.title)).toEqual(Option.some("Locked"))
          // A site not there locks nothing.
          yield* uow.transaction(sites.lock(siteId("lock-missing")))
        }))
    })

    describe("structure", () => {
      it.effect("writes removals, then inserts and overwrites, and loads every item", () =>
        Effect.gen(function*() {
          const sites = yield* SiteRepository
          const structure = yield* SiteStructureRepository
          yield* organization("tree-org")
          yield* sites.insert(site("tree-org", "tree"))
          const s1 = section("tree", "tree-s1", { groupId: groupId("tree-g1"), defaultSiteSpaceId: siteSpaceId("tree-ss1") })
          const s2 = section("tree", "tree-s2", { description: "Two", icon: "book", condition: "visitor.claims.pro", position: "a2" })
          const g1 = group("tree", "tree-g1", { icon: "folder" })
          const ss1 = siteSpace("tree", "tree-ss1", "tree-space-1", { sectionId: s1.id, condition: "true", path: "v1/en" })
          const ss2 = siteSpace("tree", "tree-ss2", "tree-space-2", { sectionId: s2.id, position: "a1" })
          yield* structure.write({
            sections: { put: [s1, s2], removed: [] },
            groups: { put: [g1], removed: [] },
            siteSpaces: { put: [ss1, ss2], removed: [] }
          })
          const loaded = yield* structure.load(siteId("tree"))
          expect(byId(loaded.sections)).toEqual([s1, s2])
          expect(loaded.groups).toEqual([g1])
          expect(byId(loaded.siteSpaces)).toEqual([ss1, ss2])

          const moved = { ...s1, groupId: null, title: "Moved", position: "a3", condition: null }
          const renamed = { ...g1, title: "Renamed", icon: null }
          const ss3 = siteSpace("tree", "tree-ss3", "tree-space-1", { sectionId: moved.id })
          yield* structure.write({
            sections: { put: [moved], removed: [s2.id] },
            groups: { put: [renamed], removed: [] },
            // Removed and put again: put wins.
            siteSpaces: { put: [ss3, { ...ss1, path: "v2" }], removed: [ss1.id, ss2.id] }
          })
          const after = yield* structure.load(siteId("tree"))
          expect(after.sections).toEqual([moved])
          expect(after.groups).toEqual([renamed])
          expect(byId(after.siteSpaces)).toEqual([{ ...ss1, path: "v2" }, ss3])
          expect(yield* structure.spacesOf([siteId("tree"), siteId("tree-none")])).toEqual([
            { siteId: "tree", spaceId: "tree-space-1" },
            { siteId: "tree", spaceId: "tree-space-1" }
          ])
          expect(yield* structure.spacesOf([])).toEqual([])
        }))
    })

    describe("share links", () => {
      it.effect("round-trips a link, searches names and keys, pages and lists the active ones", () =>
        Effect.gen(function*() {
          const sites = yield* SiteRepository
          const links = yield* ShareLinkRepository
          yield* organization("links-org")
          yield* sites.insert(site("links-org", "links"))
          const at = (ms: number) => new Date(1_700_000_000_000 + ms)
          const l1 = shareLink("links", "l1", { name: "Partners", key: "AbCdEfGh", createdAt: at(2) })
          const l2 = shareLink("links", "l2", { name: "Press 50%", key: "ZZzz0000", active: false, createdAt: at(1) })
          const l3 = shareLink("links", "l3", { name: "", key: "partnerKEY", createdAt: at(2) })
          for (const l of [l1, l2, l3]) yield* links.insert(l)
          expect(yield* links.findById(l2.id)).toEqual(Option.some(l2))

          const ids = (search: string | undefined) =>
            Effect.map(links.list(siteId("links"), search, everything), (page) => [page.items.map((l) => l.id), page.count])
          expect(yield* ids(undefined)).toEqual([["l2", "l1", "l3"], 3])
          expect(yield* ids("PARTNER")).toEqual([["l1", "l3"], 2])
          expect(yield* ids("cdef")).toEqual([["l1"], 1])
          expect(yield* ids("50%")).toEqual([["l2"], 1])
          expect(yield* ids("_")).toEqual([[], 0])
          const first = yield* links.list(siteId("links"), undefined, { limit: 1, after: Option.none() })
          expect(first.next).toEqual(Option.some([at(1).getTime(), "l2"]))
          const second = yield* links.list(siteId("links"), undefined, { limit: 1, after: first.next })
          expect(second.items).toEqual([l1])

          expect(byId(yield* links.active(siteId("links")))).toEqual([l1, l3])
          const renamed = { ...l1, name: "Renamed", active: false }
          yield* links.update(renamed)
          expect(yield* links.findById(l1.id)).toEqual(Option.some(renamed))
          expect(yield* links.active(siteId("links"))).toEqual([l3])
          yield* links.remove(l3.id)
          expect(yield* links.findById(l3.id)).toEqual(Option.none())
          expect(yield* links.active(siteId("links"))).toEqual([])
        }))
    })
  })

for (const [name, client] of sqlClients) suite(name, client)
