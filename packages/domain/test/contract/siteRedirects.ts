import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, Option } from "effect"
import {
  Actor,
  inOrganization,
  LiveEdits,
  MAX_SITE_REDIRECTS,
  type PageRequest,
  type Role,
  type Site,
  type SiteRedirect,
  SiteRedirectId,
  SiteRedirectRepository,
  SiteRedirects,
  SiteRepository,
  Sites,
  Spaces,
  type StoragePorts
} from "../../src/index.js"
import { walk } from "./walk.js"
import { adminOfNewOrganization, at, makeMember, makeOrganization, makeUser, type Services, siteOf, uniqueId } from "./fixtures.js"

const first = (limit = 50): PageRequest => ({ limit, after: Option.none() })

const failure = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => (Either.isLeft(result) ? result.left._tag : "success")

/** The site redirects slice of the storage contract: the repository, then the use cases over it. */
export const siteRedirectsContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(services.pipe(Layer.provideMerge(storage)), { timeout: 60_000 })("site redirects", (it) => {
    const redirectOf = (site: Site, source: string, fields: Partial<SiteRedirect> = {}): SiteRedirect => ({
      id: SiteRedirectId.make(uniqueId("rd")),
      siteId: site.id,
      source,
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: "external", url: `https://example.com${source}` },
      createdAt: at(1),
      updatedAt: null,
      ...fields
    })

    it.effect("storage: a redirect round trips; a source is unique per site among live ones and among drafts", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const redirects = yield* SiteRedirectRepository
        const organization = yield* makeOrganization()
        const site = siteOf(organization.id)
        const other = siteOf(organization.id)
        yield* sites.insert(site)
        yield* sites.insert(other)
        const live = redirectOf(site, "/old", {
          captureWildcard: true,
          permanent: true,
          destination: { kind: "site-page", siteSpaceId: "ss1" as never, pageId: "p1" as never },
          updatedAt: at(3)
        })
        yield* redirects.insert(live)
        expect(Option.getOrThrow(yield* redirects.findById(live.id))).toEqual(live)
        expect(Option.getOrThrow(yield* redirects.findBySource(site.id, "/old", false))).toEqual(live)
        expect(yield* redirects.findBySource(site.id, "/old", true)).toEqual(Option.none())
        // The same source: refused live, taken as a draft, and on another site.
        expect(failure(yield* Effect.either(redirects.insert(redirectOf(site, "/old"))))).toBe("Conflict")
        const draft = redirectOf(site, "/old", { draft: true })
        yield* redirects.insert(draft)
        yield* redirects.insert(redirectOf(other, "/old"))
        // Changing a source onto one taken is refused too; the redirect stays as it was.
        const second = redirectOf(site, "/second")
        yield* redirects.insert(second)
        expect(failure(yield* Effect.either(redirects.update({ ...second, source: "/old" })))).toBe("Conflict")
        expect(Option.getOrThrow(yield* redirects.findById(second.id))).toEqual(second)
        yield* redirects.update({ ...second, destination: { kind: "site-section", siteSectionId: "s1" as never }, updatedAt: at(4) })
        expect(Option.getOrThrow(yield* redirects.findById(second.id)).destination).toEqual({ kind: "site-section", siteSectionId: "s1" })
        expect(yield* redirects.count(site.id)).toBe(3)
        // Matching reads live ones only.
        const matched = yield* redirects.matching(site.id, ["/old", "/second", "/none"])
        expect(matched.map((r) => r.id).sort()).toEqual([live.id, second.id].sort())
        expect(yield* redirects.matching(site.id, [])).toEqual([])
        yield* redirects.remove(live.id)
        expect(yield* redirects.findById(live.id)).toEqual(Option.none())
        // They go with their site.
        yield* sites.remove(site.id)
        expect(yield* redirects.count(site.id)).toBe(0)
        expect(yield* redirects.findById(draft.id)).toEqual(Option.none())
        expect(yield* redirects.count(other.id)).toBe(1)
      }))

    it.effect("storage: lists by newest creation, newest change or source, live or drafts, with a search on the source", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const redirects = yield* SiteRedirectRepository
        const site = siteOf((yield* makeOrganization()).id)
        yield* sites.insert(site)
        const a = redirectOf(site, "/b-guide", { createdAt: at(1), updatedAt: at(9) })
        const b = redirectOf(site, "/a-start", { createdAt: at(3) })
        const c = redirectOf(site, "/c-Guide/*", { createdAt: at(2), updatedAt: at(5) })
        const d = redirectOf(site, "/draft", { createdAt: at(4), draft: true })
        for (const each of [a, b, c, d]) yield* redirects.insert(each)
        const ids = (orderBy: "createdAt" | "updatedAt" | "source", search?: string, draft = false) =>
          Effect.map(walk((page) => redirects.list(site.id, { orderBy, search, draft }, page), 1), (all) => all.map((r) => r.id))
        expect(yield* ids("createdAt")).toEqual([b.id, c.id, a.id])
        expect(yield* ids("updatedAt")).toEqual([a.id, c.id, b.id])
        expect(yield* ids("source")).toEqual([b.id, a.id, c.id])
        expect(yield* ids("source", "GUIDE")).toEqual([a.id, c.id])
        expect(yield* ids("createdAt", undefined, true)).toEqual([d.id])
        expect((yield* redirects.list(site.id, { orderBy: "createdAt", draft: false }, first(1))).count).toBe(3)
      }))

    const withSite = Effect.gen(function*() {
      const spaces = yield* Spaces
      const sites = yield* Sites
      const liveEdits = yield* LiveEdits
      const { organization, run } = yield* adminOfNewOrganization
      const { space } = yield* run(spaces.create(organization.id, { title: "Guides" }))
      yield* run(liveEdits.editLive(space.id, {
        changes: [
          { operation: "insert_page", title: "Start", slug: "start" },
          { operation: "insert_page", title: "Install", slug: "install" }
        ]
      }))
      const view = yield* run(sites.create(organization.id, { title: "Docs", spaces: [space.id] }))
      const asMember = (role: Role | null) =>
        Effect.gen(function*() {
          const user = yield* makeUser()
          yield* makeMember(organization, user, role)
          return Effect.provideService(Actor, user)
        })
      return { organization, run, space, site: view.site, asMember }
    })

    it.effect("use cases: create, change, list, resolve and delete; sources are kept in one spelling", () =>
      Effect.gen(function*() {
        const redirects = yield* SiteRedirects
        const { run, site, space } = yield* withSite
        const made = yield* run(redirects.createRedirect(site.id, {
          source: "/old%2dguide",
          destination: { kind: "path", spaceId: space.id, path: "install" }
        }))
        expect(made).toMatchObject({ source: "/old-guide", draft: false, permanent: false, captureWildcard: false, updatedAt: null })
        expect(made.destination).toMatchObject({ kind: "site-page" })
        const resolved = yield* run(redirects.resolveRedirect(site.id, "/old-guide", undefined))
        expect(resolved.target).toEqual({ kind: "site", segments: ["install"] })
        expect(failure(yield* Effect.either(run(redirects.resolveRedirect(site.id, "/nothing", undefined))))).toBe("NotFound")
        expect(failure(yield* Effect.either(run(redirects.resolveRedirect(site.id, "no-slash", undefined))))).toBe("InvalidInput")
        // The same source again, in another spelling: a conflict.
        expect(failure(
          yield* Effect.either(run(redirects.createRedirect(site.id, {
            source: "/old-guide",
            destination: { kind: "external", url: "https://example.com/" }
          })))
        )).toBe("Conflict")
        const changed = yield* run(redirects.updateRedirect(site.id, made.id, {
          permanent: true,
          destination: { kind: "external", url: "https://example.com/new" }
        }))
        expect(changed).toMatchObject({ permanent: true, destination: { kind: "external", url: "https://example.com/new" } })
        expect(changed.updatedAt).not.toBeNull()
        expect((yield* run(redirects.resolveRedirect(site.id, "/old-guide", undefined))).target).toEqual({
          kind: "url",
          url: "https://example.com/new"
        })
        const listed = yield* run(redirects.listRedirects(site.id, {}, first()))
        expect(listed.items.map((r) => r.id)).toEqual([made.id])
        yield* run(redirects.removeRedirect(site.id, made.id))
        expect((yield* run(redirects.listRedirects(site.id, {}, first()))).items).toEqual([])
        // Deleting it again is done already.
        yield* run(redirects.removeRedirect(site.id, made.id))
        expect(failure(yield* Effect.either(run(redirects.updateRedirect(site.id, made.id, { permanent: false }))))).toBe("NotFound")
      }))

    it.effect("use cases: a destination must be the site's own; bulk operations report each result", () =>
      Effect.gen(function*() {
        const redirects = yield* SiteRedirects
        const { run, site, space } = yield* withSite
        const other = yield* withSite
        for (
          const destination of [
            { kind: "site-section", siteSectionId: "nope" },
            { kind: "site-space", siteSpaceId: "nope" },
            { kind: "path", spaceId: other.space.id, path: "start" },
            { kind: "path", spaceId: space.id, path: "missing" }
          ] as const
        ) {
          const refused = yield* Effect.either(run(redirects.createRedirect(site.id, { source: "/x", destination: destination as never })))
          expect([destination.kind, failure(refused)]).toEqual([destination.kind, "InvalidInput"])
        }
        const results = yield* run(redirects.bulkRedirects(site.id, {
          redirects: [
            { source: "/a", destination: { kind: "path", spaceId: space.id, path: "start" } },
            { source: "/a", intent: "draft", destination: { kind: "external", url: "https://example.com/a" } },
            { source: "/a", destination: { kind: "external", url: "https://example.com/live" } },
            { source: "/b", destination: { kind: "path", spaceId: space.id, path: "missing" } },
            { source: "/c", destination: null },
            { source: "/a", intent: "publish" }
          ]
        }))
        expect(results.map((r) => [r.status, r.source, r.draft])).toEqual([
          ["created", "/a", false],
          ["created", "/a", true],
          ["updated", "/a", false],
          ["error", "/b", false],
          ["error", "/c", false],
          ["published", "/a", false]
        ])
        const live = yield* run(redirects.listRedirects(site.id, {}, first()))
        expect(live.items.map((r) => [r.source, r.destination])).toEqual([["/a", { kind: "external", url: "https://example.com/a" }]])
        expect((yield* run(redirects.listRedirects(site.id, { draft: true }, first()))).items).toEqual([])
        const deleted = yield* run(redirects.bulkRedirects(site.id, { redirects: [{ source: "/a", destination: null }] }))
        expect(deleted).toEqual([{ status: "deleted", source: "/a", draft: false }])
      }))

    it.effect("use cases: readers read, editors write; guests, strangers and other organizations see nothing", () =>
      Effect.gen(function*() {
        const redirects = yield* SiteRedirects
        const { asMember, organization, run, site } = yield* withSite
        const made = yield* run(redirects.createRedirect(site.id, {
          source: "/old",
          destination: { kind: "external", url: "https://example.com/" }
        }))
        const reader = yield* asMember("read")
        const commenter = yield* asMember("comment")
        const editor = yield* asMember("edit")
        const guest = yield* asMember(null)
        const stranger = Effect.provideService(Actor, yield* makeUser())
        const write = { source: "/new", destination: { kind: "external", url: "https://example.com/" } } as const
        expect((yield* reader(redirects.listRedirects(site.id, {}, first()))).items.map((r) => r.id)).toEqual([made.id])
        expect((yield* reader(redirects.resolveRedirect(site.id, "/old", undefined))).redirect.id).toBe(made.id)
        for (const below of [reader, commenter]) {
          expect(failure(yield* Effect.either(below(redirects.createRedirect(site.id, write))))).toBe("Forbidden")
          expect(failure(yield* Effect.either(below(redirects.removeRedirect(site.id, made.id))))).toBe("Forbidden")
        }
        expect((yield* editor(redirects.createRedirect(site.id, write))).source).toBe("/new")
        for (const outsider of [guest, stranger]) {
          expect(failure(yield* Effect.either(outsider(redirects.listRedirects(site.id, {}, first()))))).toBe("NotFound")
          expect(failure(yield* Effect.either(outsider(redirects.createRedirect(site.id, write))))).toBe("NotFound")
        }
        const elsewhere = (yield* makeOrganization()).id
        expect(failure(yield* Effect.either(run(inOrganization(elsewhere)(redirects.listRedirects(site.id, {}, first()))))))
          .toBe("NotFound")
        expect((yield* run(inOrganization(organization.id)(redirects.listRedirects(site.id, {}, first())))).count).toBe(2)
      }))

    it.effect(`use cases: a site holds at most ${MAX_SITE_REDIRECTS} redirects`, () =>
      Effect.gen(function*() {
        const repository = yield* SiteRedirectRepository
        const redirects = yield* SiteRedirects
        const { run, site } = yield* withSite
        // All but the last two, straight into storage.
        for (let i = 0; i < MAX_SITE_REDIRECTS - 2; i++) {
          yield* repository.insert(redirectOf(site as Site, `/seeded-${i}`))
        }
        const external = { kind: "external", url: "https://example.com/" } as const
        expect((yield* run(redirects.createRedirect(site.id, { source: "/last", destination: external }))).source).toBe("/last")
        const results = yield* run(redirects.bulkRedirects(site.id, {
          redirects: [
            { source: "/seeded-0", destination: external },
            { source: "/one-more", destination: external },
            { source: "/too-many", destination: external }
          ]
        }))
        expect(results.map((r) => r.status)).toEqual(["updated", "created", "error"])
        expect(failure(yield* Effect.either(run(redirects.createRedirect(site.id, { source: "/over", destination: external })))))
          .toBe("Conflict")
        expect(yield* repository.count(site.id)).toBe(MAX_SITE_REDIRECTS)
      }), { timeout: 120_000 })
  })
