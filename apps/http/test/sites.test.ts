import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgServerClientInFreshSchema, PgStorage } from "@octavo/adapters-pg"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { type Answer, call, PUBLIC_URL, testServer } from "./harness.js"
import { addMember, chars, newUser, type TestUser } from "./scenario.js"

// Sites over HTTP (conventions-2.md §0, §1.1-§1.5): every limit at its edge, every cascade, every status.
// Each answer is checked against GitBook's schema by the conformance setup (harness `call`).

/**
 * Memory by default; `OCTAVO_SITES_STORAGE=pglite` runs the same file on embedded PostgreSQL, and `=pg` on the
 * server of OCTAVO_TEST_DATABASE_URL, so that an adapter that differs shows up here too.
 */
const storage = (() => {
  const url = process.env["OCTAVO_TEST_DATABASE_URL"]
  switch (process.env["OCTAVO_SITES_STORAGE"]) {
    case "pglite":
      return PgStorage.pipe(Layer.provide(PgliteClient()))
    case "pg":
      if (url === undefined) throw new Error("OCTAVO_SITES_STORAGE=pg needs OCTAVO_TEST_DATABASE_URL")
      return PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(url)))
    default:
      return MemoryStorage
  }
})()

/** An organization with its admin, and the base path of its sites. */
const setup = Effect.gen(function*() {
  const admin = yield* newUser("Sam Sites")
  const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
  return { admin, token: admin.token, organizationId, sites: `/v1/orgs/${organizationId}/sites` }
})
type Setup = Effect.Effect.Success<typeof setup>

const newSpace = (s: Setup, title: string) =>
  Effect.map(call("POST", `/v1/orgs/${s.organizationId}/spaces`, { token: s.token, body: { title } }), (answer) => {
    expect(answer.status).toBe(201)
    return answer.body.id as string
  })

/** Creates a site; answers its id and its API path. */
const newSite = (s: Setup, body: unknown) =>
  Effect.map(call("POST", s.sites, { token: s.token, body }), (answer) => {
    expect(answer.status).toBe(201)
    const id = answer.body.id as string
    return { id, path: `${s.sites}/${id}`, body: answer.body }
  })

const addSiteSpace = (s: Setup, site: string, body: unknown) =>
  Effect.map(call("POST", `${site}/site-spaces`, { token: s.token, body }), (answer) => {
    expect(answer.status).toBe(201)
    return answer.body.id as string
  })

const addSection = (s: Setup, site: string, body: unknown) =>
  Effect.map(call("POST", `${site}/sections`, { token: s.token, body }), (answer) => {
    expect(answer.status).toBe(201)
    return answer.body.id as string
  })

const ids = (answer: Answer) => answer.body.items.map((item: { id: string }) => item.id) as Array<string>
const message = (answer: Answer) => answer.body.error.message as string
const errorOf = (answer: Answer) => [answer.status, answer.body?.error?.code]

/** The root items of a sectioned site's published structure: `S:<title>` or `G:<title>[<sections>]`. */
const rootOrder = (s: Setup, site: string) =>
  Effect.map(call("GET", `${site}/published`, { token: s.token }), (answer) => {
    expect(answer.body.structure.type).toBe("sections")
    return answer.body.structure.structure.map((item: { object: string; title: string; sections?: Array<{ title: string }> }) =>
      item.object === "site-section" ? `S:${item.title}` : `G:${item.title}[${(item.sections ?? []).map((x) => x.title).join(",")}]`
    ) as Array<string>
  })

layer(testServer(storage), { excludeTestServices: true, timeout: 120_000 })("sites over HTTP", (it) => {
  it.effect("create: title limits after trim, defaults, type, 201 with Location", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const create = (body: unknown) => call("POST", s.sites, { token: s.token, body })
      expect(errorOf(yield* create({ title: "a" }))).toEqual([400, 400])
      expect(errorOf(yield* create({ title: "  a  " }))).toEqual([400, 400])
      expect((yield* create({ title: chars(128) })).body.title).toBe(chars(128))
      expect(errorOf(yield* create({ title: chars(129) }))).toEqual([400, 400])
      const trimmed = yield* create({ title: "  ab " })
      expect([trimmed.status, trimmed.body.title]).toEqual([201, "ab"])
      expect(trimmed.headers["location"]).toBe(`${PUBLIC_URL}${s.sites}/${trimmed.body.id}`)
      expect(trimmed.body.urls.location).toBe(`${PUBLIC_URL}${s.sites}/${trimmed.body.id}`)
      const plain = yield* create({})
      expect(plain.status).toBe(201)
      expect(plain.body).toMatchObject({
        type: "basic",
        appliedType: "basic",
        title: "Untitled site",
        visibility: "public",
        published: false,
        siteSpaces: 0,
        adaptiveContent: { enabled: false }
      })
      expect(plain.body.hostname).toBeUndefined()
      expect((yield* create({ type: "premium" })).body).toMatchObject({ type: "premium", appliedType: "premium" })
      expect(errorOf(yield* create({ type: "nope" }))).toEqual([400, 400])
    }))

  it.effect("create with spaces: 100 ids ok, 101 or a duplicate 400, foreign/deleted/unknown ids 400 with one message", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const spaces: Array<string> = []
      for (let i = 0; i < 101; i++) spaces.push(yield* newSpace(s, `Space ${i}`))
      const hundred = yield* call("POST", s.sites, { token: s.token, body: { title: "Big", spaces: spaces.slice(0, 100) } })
      expect([hundred.status, hundred.body.siteSpaces]).toEqual([201, 100])
      const listed = yield* call("GET", `${hundred.body.urls.location.slice(PUBLIC_URL.length)}/site-spaces?limit=1000`, { token: s.token })
      expect(listed.body.items.map((x: { space: { id: string } }) => x.space.id)).toEqual(spaces.slice(0, 100))
      expect(listed.body.items.map((x: { default: boolean }) => x.default).indexOf(true)).toBe(0)
      expect(errorOf(yield* call("POST", s.sites, { token: s.token, body: { spaces } }))).toEqual([400, 400])
      expect(errorOf(yield* call("POST", s.sites, { token: s.token, body: { spaces: [spaces[0], spaces[0]] } }))).toEqual([400, 400])

      const other = yield* setup
      const foreign = yield* newSpace(other, "Theirs")
      const deleted = yield* newSpace(s, "Gone")
      expect((yield* call("DELETE", `/v1/spaces/${deleted}`, { token: s.token })).status).toBe(204)
      const unknown = "spaceThatDoesNotExist"
      const refusals: Array<string> = []
      for (const id of [foreign, deleted, unknown]) {
        const refused = yield* call("POST", s.sites, { token: s.token, body: { title: "Refs", spaces: [spaces[0], id] } })
        expect(errorOf(refused)).toEqual([400, 400])
        refusals.push(message(refused).replaceAll(id, "<id>"))
      }
      expect(new Set(refusals).size).toBe(1)
      // Nothing was created by the refused calls.
      expect((yield* call("GET", `${s.sites}?title=Refs`, { token: s.token })).body.count).toBe(0)
    }))

  it.effect("create with the object form makes a space titled after the site (cut to 50), its default site space", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const title = `${chars(45, "x")} ${chars(20, "y")}`
      const site = yield* newSite(s, { title, spaces: {} })
      expect(site.body.siteSpaces).toBe(1)
      const listed = yield* call("GET", `${site.path}/site-spaces`, { token: s.token })
      expect(listed.body.count).toBe(1)
      const [only] = listed.body.items
      expect(only.default).toBe(true)
      const space = yield* call("GET", `/v1/spaces/${only.space.id}`, { token: s.token })
      expect([space.status, space.body.title]).toEqual([200, title.slice(0, 50)])
      const named = yield* newSite(s, { title: "Named", spaces: { title: "Handbook" } })
      const namedSpaces = yield* call("GET", `${named.path}/site-spaces`, { token: s.token })
      expect(namedSpaces.body.items[0].title).toBe("Handbook")
    }))

  it.effect("list filters: space, title, published, repeated type, paging", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      // Lists go by creation time, then id: a few milliseconds apart, the creation order is the list's.
      const alpha = yield* newSite(s, { title: "Alpha Docs", spaces: [guide] })
      yield* Effect.sleep("3 millis")
      const beta = yield* newSite(s, { title: "beta DOCS", type: "premium" })
      yield* Effect.sleep("3 millis")
      const gamma = yield* newSite(s, { title: "Gamma", type: "ultimate" })
      expect((yield* call("POST", `${gamma.path}/publish`, { token: s.token })).status).toBe(200)
      const list = (query: string) => call("GET", `${s.sites}${query}`, { token: s.token })
      expect(ids(yield* list(""))).toEqual([alpha.id, beta.id, gamma.id])
      expect(ids(yield* list(`?space=${guide}`))).toEqual([alpha.id])
      expect(ids(yield* list("?title=docs"))).toEqual([alpha.id, beta.id])
      expect(ids(yield* list("?title=DOCS"))).toEqual([alpha.id, beta.id])
      expect(ids(yield* list("?published=true"))).toEqual([gamma.id])
      expect(ids(yield* list("?published=false"))).toEqual([alpha.id, beta.id])
      expect(errorOf(yield* list("?published=yes"))).toEqual([400, 400])
      expect(ids(yield* list("?type=basic&type=premium"))).toEqual([alpha.id, beta.id])
      expect(ids(yield* list("?type=ultimate"))).toEqual([gamma.id])
      expect(errorOf(yield* list("?type=nope"))).toEqual([400, 400])
      expect(errorOf(yield* list("?type=basic&type=nope"))).toEqual([400, 400])

      const seen: Array<string> = []
      let page: string | undefined = undefined
      for (let i = 0; i < 5; i++) {
        const answer: Answer = yield* list(`?limit=1${page === undefined ? "" : `&page=${encodeURIComponent(page)}`}`)
        expect(answer.status).toBe(200)
        expect(answer.body.items).toHaveLength(1)
        expect(answer.body.count).toBe(3)
        seen.push(...ids(answer))
        page = answer.body.next?.page
        if (page === undefined) break
      }
      expect(seen).toEqual([alpha.id, beta.id, gamma.id])
      expect(errorOf(yield* list("?limit=1&page=forged-token"))).toEqual([400, 400])
    }))

  it.effect("PATCH basename: 1-100 of [A-Za-z0-9._-], unique per organization case-insensitively, null removes", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const a = yield* newSite(s, { title: "First" })
      const b = yield* newSite(s, { title: "Second" })
      const patch = (site: string, body: unknown) => call("PATCH", site, { token: s.token, body })
      expect((yield* patch(a.path, { basename: "a" })).body.basename).toBe("a")
      expect((yield* patch(a.path, { basename: chars(100) })).body.basename).toBe(chars(100))
      expect(errorOf(yield* patch(a.path, { basename: chars(101) }))).toEqual([400, 400])
      expect(errorOf(yield* patch(a.path, { basename: "" }))).toEqual([400, 400])
      expect(errorOf(yield* patch(a.path, { basename: "a b" }))).toEqual([400, 400])
      expect(errorOf(yield* patch(a.path, { basename: "a/b" }))).toEqual([400, 400])
      expect((yield* patch(a.path, { basename: "Docs.v2_x-y" })).body.basename).toBe("Docs.v2_x-y")
      expect(errorOf(yield* patch(b.path, { basename: "docs.V2_X-Y" }))).toEqual([409, 409])
      // Another organization may use it.
      const other = yield* setup
      const theirs = yield* newSite(other, { title: "Theirs" })
      expect((yield* call("PATCH", theirs.path, { token: other.token, body: { basename: "Docs.v2_x-y" } })).status).toBe(200)
      const removed = yield* patch(a.path, { basename: null })
      expect(removed.status).toBe(200)
      expect(removed.body.basename).toBeUndefined()
      expect((yield* patch(b.path, { basename: "docs.v2_x-y" })).status).toBe(200)
      // With a basename the published URL uses it in place of the site id.
      const published = yield* call("POST", `${b.path}/publish`, { token: s.token })
      expect(published.body.urls.published).toBe(`${PUBLIC_URL}/sites/${s.organizationId}/docs.v2_x-y`)
    }))

  it.effect("PATCH proxy: host plus path, lowercased, unique on the instance, {origin, target}, null removes", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const a = yield* newSite(s, { title: "First" })
      const patch = (site: string, body: unknown, token = s.token) => call("PATCH", site, { token, body })
      const ok = yield* patch(a.path, { proxy: "Docs.Example.com/Help" })
      expect(ok.status).toBe(200)
      expect(ok.body.proxy).toEqual({ origin: "docs.example.com/help", target: `${PUBLIC_URL}/sites/${s.organizationId}/${a.id}` })
      expect(ok.body.urls.published).toBeUndefined()
      expect(errorOf(yield* patch(a.path, { proxy: "https://x.com/a" }))).toEqual([400, 400])
      expect(errorOf(yield* patch(a.path, { proxy: "example.com" }))).toEqual([400, 400])
      expect(errorOf(yield* patch(a.path, { proxy: "example.com/" }))).toEqual([400, 400])
      const long = `example.com/${chars(500)}`
      expect((yield* patch(a.path, { proxy: long })).status).toBe(200)
      expect(errorOf(yield* patch(a.path, { proxy: `example.com/${chars(501)}` }))).toEqual([400, 400])
      expect((yield* patch(a.path, { proxy: "docs.example.com/help" })).status).toBe(200)
      const published = yield* call("POST", `${a.path}/publish`, { token: s.token })
      expect(published.body.urls.published).toBe("https://docs.example.com/help")

      const other = yield* setup
      const theirs = yield* newSite(other, { title: "Theirs" })
      expect(errorOf(yield* patch(theirs.path, { proxy: "DOCS.example.com/HELP" }, other.token))).toEqual([409, 409])
      const b = yield* newSite(s, { title: "Second" })
      expect(errorOf(yield* patch(b.path, { proxy: "docs.example.com/help" }))).toEqual([409, 409])
      const removed = yield* patch(a.path, { proxy: null })
      expect(removed.body.proxy).toBeUndefined()
      expect(removed.body.urls.published).toBe(`${PUBLIC_URL}/sites/${s.organizationId}/${a.id}`)
      expect((yield* patch(theirs.path, { proxy: "docs.example.com/help" }, other.token)).status).toBe(200)
    }))

  it.effect("PATCH defaultSiteSection without sections and defaultSiteSpace of a non-default section are 400", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const flat = yield* newSite(s, { title: "Flat", spaces: [guide] })
      const sectioned = yield* newSite(s, { title: "Sectioned", spaces: [guide] })
      const section = yield* addSection(s, sectioned.path, { spaceId: api, title: "Reference" })
      expect(errorOf(yield* call("PATCH", flat.path, { token: s.token, body: { defaultSiteSection: section } }))).toEqual([400, 400])
      const sections = yield* call("GET", `${sectioned.path}/sections`, { token: s.token })
      const reference = sections.body.items.find((x: { id: string }) => x.id === section)
      const apiSiteSpace = reference.siteSpaces[0].id as string
      expect(errorOf(yield* call("PATCH", sectioned.path, { token: s.token, body: { defaultSiteSpace: apiSiteSpace } }))).toEqual([
        400,
        400
      ])
      // The default section's site space, and the other section as default, are accepted.
      const defaultSection = sections.body.items.find((x: { default: boolean }) => x.default)
      const okSpace = yield* call("PATCH", sectioned.path, { token: s.token, body: { defaultSiteSpace: defaultSection.siteSpaces[0].id } })
      expect(okSpace.status).toBe(200)
      expect((yield* call("PATCH", sectioned.path, { token: s.token, body: { defaultSiteSection: section } })).status).toBe(200)
      const after = yield* call("GET", `${sectioned.path}/sections/${section}`, { token: s.token })
      expect(after.body.default).toBe(true)
    }))

  it.effect("DELETE a site cascades to its site spaces, sections, groups and share links; its spaces stay", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const site = yield* newSite(s, { title: "Doomed", spaces: [guide] })
      const siteSpace = yield* addSiteSpace(s, site.path, { spaceId: api })
      const section = yield* addSection(s, site.path, { spaceId: api, title: "Reference" })
      const group = (yield* call("POST", `${site.path}/section-groups`, { token: s.token, body: { title: "G", sections: [section] } })).body
        .id as string
      const link = (yield* call("POST", `${site.path}/share-links`, { token: s.token, body: { name: "L" } })).body.id as string
      yield* call("POST", `${site.path}/publish`, { token: s.token })
      expect((yield* call("GET", `/v1/spaces/${guide}`, { token: s.token })).body.urls.published).toBe(
        `${PUBLIC_URL}/sites/${s.organizationId}/${site.id}`
      )
      expect((yield* call("DELETE", site.path, { token: s.token })).status).toBe(204)
      const gone = [
        call("GET", site.path, { token: s.token }),
        call("GET", `${site.path}/site-spaces`, { token: s.token }),
        call("PATCH", `${site.path}/site-spaces/${siteSpace}`, { token: s.token, body: { path: "x" } }),
        call("GET", `${site.path}/sections/${section}`, { token: s.token }),
        call("GET", `${site.path}/section-groups`, { token: s.token }),
        call("PATCH", `${site.path}/section-groups/${group}`, { token: s.token, body: { title: "H" } }),
        call("PATCH", `${site.path}/share-links/${link}`, { token: s.token, body: { active: false } }),
        call("GET", `${site.path}/share-links`, { token: s.token }),
        call("GET", `${site.path}/published`, { token: s.token }),
        call("DELETE", site.path, { token: s.token })
      ]
      for (const request of gone) expect(errorOf(yield* request)).toEqual([404, 404])
      for (const space of [guide, api]) {
        const kept = yield* call("GET", `/v1/spaces/${space}`, { token: s.token })
        expect([kept.status, kept.body.urls.published]).toEqual([200, undefined])
      }
      expect((yield* call("GET", `${s.sites}?space=${guide}`, { token: s.token })).body.count).toBe(0)
    }))

  it.effect("publish and unpublish: idempotent, 200 with the Site, published URLs only while published", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const site = yield* newSite(s, { title: "Docs", spaces: [guide] })
      const siteSpaces = () => call("GET", `${site.path}/site-spaces`, { token: s.token })
      expect((yield* siteSpaces()).body.items[0].urls.published).toBeUndefined()
      expect((yield* call("GET", `/v1/spaces/${guide}`, { token: s.token })).body.urls.published).toBeUndefined()
      const native = `${PUBLIC_URL}/sites/${s.organizationId}/${site.id}`
      for (let i = 0; i < 2; i++) {
        const published = yield* call("POST", `${site.path}/publish`, { token: s.token })
        expect([published.status, published.body.object, published.body.published, published.body.urls.published]).toEqual([
          200,
          "site",
          true,
          native
        ])
      }
      expect((yield* siteSpaces()).body.items[0].urls.published).toBe(native)
      expect((yield* call("GET", `/v1/spaces/${guide}`, { token: s.token })).body.urls.published).toBe(native)
      expect((yield* call("GET", site.path, { token: s.token })).body.urls.published).toBe(native)
      for (let i = 0; i < 2; i++) {
        const unpublished = yield* call("POST", `${site.path}/unpublish`, { token: s.token })
        expect([unpublished.status, unpublished.body.published, unpublished.body.urls.published]).toEqual([200, false, undefined])
      }
      expect((yield* siteSpaces()).body.items[0].urls.published).toBeUndefined()
      expect((yield* call("GET", `/v1/spaces/${guide}`, { token: s.token })).body.urls.published).toBeUndefined()
      // An empty site may be published.
      const empty = yield* newSite(s, { title: "Empty" })
      expect((yield* call("POST", `${empty.path}/publish`, { token: s.token })).body.published).toBe(true)
    }))

  it.effect("site spaces: add, paths, conditions, defaults, moves, deletes", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const [guide, api, faq, other] = [
        yield* newSpace(s, "Guide"),
        yield* newSpace(s, "API Reference"),
        yield* newSpace(
          s,
          "Guide"
        ),
        yield* newSpace(s, "Other")
      ]
      const site = yield* newSite(s, { title: "Docs", spaces: [guide] })
      const spaces = `${site.path}/site-spaces`
      const add = (body: unknown) => call("POST", spaces, { token: s.token, body })
      const added = yield* add({ spaceId: api })
      expect([added.status, added.body.path, added.body.default]).toEqual([201, "api-reference", false])
      expect(added.headers["location"]).toBe(`${PUBLIC_URL}${spaces}/${added.body.id}`)
      const apiSs = added.body.id as string
      // The same title again: the slug is made unique.
      const faqAdded = yield* add({ spaceId: faq })
      expect([faqAdded.status, faqAdded.body.path]).toEqual([201, "guide-2"])
      const faqSs = faqAdded.body.id as string
      expect(errorOf(yield* add({ spaceId: api }))).toEqual([409, 409])
      expect(errorOf(yield* add({ spaceId: null }))).toEqual([400, 400])
      const section = yield* newSite(s, { title: "Other site" })
      const foreignSection = yield* addSection(s, section.path, { spaceId: other, title: "Elsewhere" })
      expect(errorOf(yield* add({ spaceId: other, sectionId: foreignSection }))).toEqual([400, 400])

      const patch = (id: string, body: unknown) => call("PATCH", `${spaces}/${id}`, { token: s.token, body })
      expect((yield* patch(apiSs, { path: chars(100) })).body.path).toBe(chars(100))
      expect(errorOf(yield* patch(apiSs, { path: chars(101) }))).toEqual([400, 400])
      expect(errorOf(yield* patch(apiSs, { path: "a/../b" }))).toEqual([400, 400])
      expect(errorOf(yield* patch(apiSs, { path: "a//b" }))).toEqual([400, 400])
      expect(errorOf(yield* patch(apiSs, { path: "a/./b" }))).toEqual([400, 400])
      expect(errorOf(yield* patch(apiSs, { path: "" }))).toEqual([400, 400])
      expect((yield* patch(apiSs, { path: "v1/API.ref_x-y" })).body.path).toBe("v1/API.ref_x-y")
      expect(errorOf(yield* patch(faqSs, { path: "V1/api.REF_x-y" }))).toEqual([409, 409])

      const prefix = "visitor.claims.plan == \""
      const longCondition = (n: number) => `${prefix}${chars(n - prefix.length - 1, "p")}"`
      expect(longCondition(1024)).toHaveLength(1024)
      const withCondition = yield* patch(apiSs, { condition: longCondition(1024) })
      expect([withCondition.status, withCondition.body.condition]).toEqual([200, longCondition(1024)])
      expect(errorOf(yield* patch(apiSs, { condition: longCondition(1025) }))).toEqual([400, 400])
      expect(errorOf(yield* patch(apiSs, { condition: "visitor.claims.beta ==" }))).toEqual([400, 400])
      expect(errorOf(yield* patch(apiSs, { condition: "" }))).toEqual([400, 400])
      // Absent leaves it, null removes it.
      expect((yield* patch(apiSs, { path: "api" })).body.condition).toBe(longCondition(1024))
      const cleared = yield* patch(apiSs, { condition: null })
      expect([cleared.status, cleared.body.condition, cleared.body.hidden]).toEqual([200, undefined, false])
      // Hidden from the navigation, and back; anything but a boolean is 400.
      expect((yield* patch(apiSs, { hidden: true })).body.hidden).toBe(true)
      expect((yield* patch(apiSs, { path: "api" })).body.hidden).toBe(true)
      expect(errorOf(yield* patch(apiSs, { hidden: "yes" }))).toEqual([400, 400])
      expect((yield* patch(apiSs, { hidden: false })).body.hidden).toBe(false)

      const list = (query = "") => call("GET", `${spaces}${query}`, { token: s.token })
      const guideSs = (yield* list("?default=true")).body.items[0].id as string
      expect(ids(yield* list("?default=true"))).toEqual([guideSs])
      expect(ids(yield* list("?default=false"))).toEqual([apiSs, faqSs])
      expect(errorOf(yield* list("?default=maybe"))).toEqual([400, 400])

      // Moves: before/after a sibling; a non-sibling or a non-adjacent pair is 400.
      const move = (id: string, position: unknown) => call("POST", `${spaces}/${id}/move`, { token: s.token, body: { position } })
      expect((yield* move(faqSs, { before: { type: "site-space", siteSpace: guideSs } })).status).toBe(200)
      expect(ids(yield* list())).toEqual([faqSs, guideSs, apiSs])
      expect((yield* move(faqSs, { after: { type: "site-space", siteSpace: apiSs } })).status).toBe(200)
      expect(ids(yield* list())).toEqual([guideSs, apiSs, faqSs])
      expect(
        (yield* move(faqSs, { after: { type: "site-space", siteSpace: guideSs }, before: { type: "site-space", siteSpace: apiSs } }))
          .status
      ).toBe(200)
      expect(ids(yield* list())).toEqual([guideSs, faqSs, apiSs])
      expect(
        errorOf(
          yield* move(guideSs, { after: { type: "site-space", siteSpace: faqSs }, before: { type: "site-space", siteSpace: faqSs } })
        )
      ).toEqual([400, 400])
      const foreignSs = (yield* call("GET", `${section.path}/site-spaces`, { token: s.token })).body.items[0].id as string
      expect(errorOf(yield* move(guideSs, { before: { type: "site-space", siteSpace: foreignSs } }))).toEqual([400, 400])
      // Three siblings a, b, c: before c and after a is adjacent only for b's neighbours.
      const d = yield* addSiteSpace(s, site.path, { spaceId: other })
      expect(ids(yield* list())).toEqual([guideSs, faqSs, apiSs, d])
      expect(
        errorOf(yield* move(d, { after: { type: "site-space", siteSpace: guideSs }, before: { type: "site-space", siteSpace: apiSs } }))
      ).toEqual([400, 400])
      expect(ids(yield* list())).toEqual([guideSs, faqSs, apiSs, d])

      // Deleting the default promotes the next one.
      expect((yield* call("DELETE", `${spaces}/${guideSs}`, { token: s.token })).status).toBe(204)
      expect(ids(yield* list("?default=true"))).toEqual([faqSs])
      expect((yield* call("GET", site.path, { token: s.token })).body.siteSpaces).toBe(3)
      expect(errorOf(yield* call("DELETE", `${spaces}/${guideSs}`, { token: s.token }))).toEqual([404, 404])
    }))

  it.effect("site spaces: sectionId on a site without sections 400; the last one of a section 412", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const flat = yield* newSite(s, { title: "Flat", spaces: [guide] })
      const sectioned = yield* newSite(s, { title: "Sectioned" })
      const section = yield* addSection(s, sectioned.path, { spaceId: guide, title: "Guides" })
      expect(errorOf(yield* call("POST", `${flat.path}/site-spaces`, { token: s.token, body: { spaceId: api, sectionId: section } })))
        .toEqual([400, 400])
      const only = (yield* call("GET", `${sectioned.path}/sections/${section}`, { token: s.token })).body.siteSpaces[0].id as string
      expect(errorOf(yield* call("DELETE", `${sectioned.path}/site-spaces/${only}`, { token: s.token }))).toEqual([412, 412])
      // Without sectionId on a sectioned site: the default section.
      const added = yield* call("POST", `${sectioned.path}/site-spaces`, { token: s.token, body: { spaceId: api } })
      expect([added.status, added.body.section]).toEqual([201, section])
      expect((yield* call("DELETE", `${sectioned.path}/site-spaces/${only}`, { token: s.token })).status).toBe(204)
      // The same space may be in another scope, not twice in one.
      const other = yield* addSection(s, sectioned.path, { spaceId: guide, title: "Again" })
      expect(errorOf(yield* call("POST", `${sectioned.path}/site-spaces`, { token: s.token, body: { spaceId: guide, sectionId: other } })))
        .toEqual([409, 409])
    }))

  it.effect("a soft-deleted space hides its site space from lists and counts; restore brings it back", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const site = yield* newSite(s, { title: "Docs", spaces: [guide, api] })
      const listed = () => call("GET", `${site.path}/site-spaces`, { token: s.token })
      const count = () => Effect.map(call("GET", site.path, { token: s.token }), (a) => a.body.siteSpaces as number)
      const before = ids(yield* listed())
      expect([before.length, yield* count()]).toEqual([2, 2])
      expect((yield* call("DELETE", `/v1/spaces/${api}`, { token: s.token })).status).toBe(204)
      expect(ids(yield* listed())).toEqual([before[0]])
      expect(yield* count()).toBe(1)
      expect((yield* call("GET", s.sites, { token: s.token })).body.items[0].siteSpaces).toBe(1)
      const published = yield* call("GET", `${site.path}/published`, { token: s.token })
      expect(published.body.structure.structure).toHaveLength(1)
      expect((yield* call("POST", `/v1/spaces/${api}/restore`, { token: s.token })).status).toBe(200)
      expect(ids(yield* listed())).toEqual(before)
      expect(yield* count()).toBe(2)
    }))

  it.effect("sections: the first one moves root site spaces into a default section; limits; groups; urls; the last one", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const faq = yield* newSpace(s, "FAQ")
      const api = yield* newSpace(s, "API")
      const site = yield* newSite(s, { title: "Product Docs", spaces: [guide, faq] })
      const rootSpaces = ids(yield* call("GET", `${site.path}/site-spaces`, { token: s.token }))
      const sections = `${site.path}/sections`
      const first = yield* call("POST", sections, { token: s.token, body: { spaceId: api, title: "Reference", icon: chars(50, "b") } })
      expect([first.status, first.body.icon, first.body.default]).toEqual([201, chars(50, "b"), false])
      const reference = first.body.id as string
      const listed = yield* call("GET", sections, { token: s.token })
      expect(listed.body.count).toBe(2)
      const [dflt, second] = listed.body.items
      expect(second.id).toBe(reference)
      expect(dflt).toMatchObject({ title: "Product Docs", path: "product-docs", default: true })
      expect(dflt.siteSpaces.map((x: { id: string }) => x.id)).toEqual(rootSpaces)
      expect(dflt.siteSpaces.map((x: { default: boolean }) => x.default)).toEqual([true, false])
      expect(second.siteSpaces).toHaveLength(1)
      expect(second.siteSpaces[0]).toMatchObject({ default: true, section: reference })
      expect((yield* call("GET", site.path, { token: s.token })).body.siteSpaces).toBe(3)

      const add = (body: unknown) => call("POST", sections, { token: s.token, body })
      expect(errorOf(yield* add({ spaceId: api, title: "Other", icon: chars(51, "b") }))).toEqual([400, 400])
      expect(errorOf(yield* add({ spaceId: api, title: "Other", icon: "Bad!" }))).toEqual([400, 400])
      expect(errorOf(yield* add({ spaceId: api, title: "Reference" }))).toEqual([409, 409])
      const patch = (id: string, body: unknown) => call("PATCH", `${sections}/${id}`, { token: s.token, body })
      expect(errorOf(yield* patch(reference, { path: "PRODUCT-docs" }))).toEqual([409, 409])
      expect((yield* patch(reference, { description: chars(256) })).body.description).toBe(chars(256))
      expect(errorOf(yield* patch(reference, { description: chars(257) }))).toEqual([400, 400])
      expect((yield* patch(reference, { description: null })).body.description).toBeUndefined()
      expect(errorOf(yield* patch(reference, { icon: "Bad!" }))).toEqual([400, 400])
      expect((yield* patch(reference, { icon: null })).body.icon).toBeUndefined()

      // Into a group and back to the root.
      const group = yield* call("POST", `${site.path}/section-groups`, { token: s.token, body: { title: "Devs" } })
      expect(group.status).toBe(201)
      const grouped = yield* patch(reference, { sectionGroupId: group.body.id })
      expect([grouped.status, grouped.body.sectionGroup]).toEqual([200, group.body.id])
      expect(yield* rootOrder(s, site.path)).toEqual(["S:Product Docs", "G:Devs[Reference]"])
      const ungrouped = yield* patch(reference, { sectionGroupId: null })
      expect([ungrouped.status, ungrouped.body.sectionGroup]).toEqual([200, undefined])
      expect(yield* rootOrder(s, site.path)).toEqual(["S:Product Docs", "G:Devs[]", "S:Reference"])

      // Published URLs: the default section's path is left out.
      yield* call("POST", `${site.path}/publish`, { token: s.token })
      const native = `${PUBLIC_URL}/sites/${s.organizationId}/${site.id}`
      const published = yield* call("GET", sections, { token: s.token })
      expect(published.body.items.map((x: { urls: { published: string } }) => x.urls.published)).toEqual([native, `${native}/reference`])
      expect(published.body.items[0].siteSpaces.map((x: { urls: { published: string } }) => x.urls.published)).toEqual([
        native,
        `${native}/faq`
      ])
      expect(published.body.items[1].siteSpaces[0].urls.published).toBe(`${native}/reference`)

      // Deleting every section returns the site to site spaces, with none.
      expect((yield* call("DELETE", `${sections}/${dflt.id}`, { token: s.token })).status).toBe(204)
      expect((yield* call("GET", `${sections}/${reference}`, { token: s.token })).body.default).toBe(true)
      expect((yield* call("DELETE", `${sections}/${reference}`, { token: s.token })).status).toBe(204)
      const emptied = yield* call("GET", site.path, { token: s.token })
      expect(emptied.body.siteSpaces).toBe(0)
      const structure = yield* call("GET", `${site.path}/published`, { token: s.token })
      expect(structure.body.structure).toEqual({ type: "siteSpaces", structure: [] })
      expect((yield* call("GET", sections, { token: s.token })).body.count).toBe(0)
    }))

  it.effect("section groups: 412 without sections, title limits, membership, deletion in place, moves", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const space = yield* newSpace(s, "Guide")
      const site = yield* newSite(s, { title: "Docs" })
      const groups = `${site.path}/section-groups`
      expect(errorOf(yield* call("POST", groups, { token: s.token, body: { title: "Early" } }))).toEqual([412, 412])
      const [s1, s2, s3, s4] = [
        yield* addSection(s, site.path, { spaceId: space, title: "One" }),
        yield* addSection(s, site.path, { spaceId: space, title: "Two" }),
        yield* addSection(s, site.path, { spaceId: space, title: "Three" }),
        yield* addSection(s, site.path, { spaceId: space, title: "Four" })
      ]
      const add = (body: unknown) => call("POST", groups, { token: s.token, body })
      expect(errorOf(yield* add({ title: "" }))).toEqual([400, 400])
      expect(errorOf(yield* add({ title: chars(101) }))).toEqual([400, 400])
      const wide = yield* add({ title: chars(100) })
      expect([wide.status, wide.body.title]).toEqual([201, chars(100)])
      expect((yield* call("DELETE", `${groups}/${wide.body.id}`, { token: s.token })).status).toBe(204)
      const group = yield* add({ title: "G", sections: [s3, s2] })
      expect(group.status).toBe(201)
      const g = group.body.id as string
      expect(group.body.sections.map((x: { id: string }) => x.id)).toEqual([s3, s2])
      expect(yield* rootOrder(s, site.path)).toEqual(["S:One", "S:Four", "G:G[Three,Two]"])
      expect(errorOf(yield* call("PATCH", `${groups}/${g}`, { token: s.token, body: { title: chars(101) } }))).toEqual([400, 400])

      // Membership: in twice is 200 and unchanged; out is 204; out of a non-member is 404.
      const joined = yield* call("POST", `${groups}/${g}/sections`, { token: s.token, body: { sectionId: s4 } })
      expect([joined.status, joined.body.sections.map((x: { id: string }) => x.id)]).toEqual([200, [s3, s2, s4]])
      const again = yield* call("POST", `${groups}/${g}/sections`, { token: s.token, body: { sectionId: s4 } })
      expect([again.status, again.body]).toEqual([200, joined.body])
      expect((yield* call("GET", `${site.path}/sections/${s4}`, { token: s.token })).body.sectionGroup).toBe(g)
      expect((yield* call("DELETE", `${groups}/${g}/sections/${s4}`, { token: s.token })).status).toBe(204)
      expect(errorOf(yield* call("DELETE", `${groups}/${g}/sections/${s4}`, { token: s.token }))).toEqual([404, 404])
      expect(errorOf(yield* call("DELETE", `${groups}/${g}/sections/${s1}`, { token: s.token }))).toEqual([404, 404])
      expect(yield* rootOrder(s, site.path)).toEqual(["S:One", "G:G[Three,Two]", "S:Four"])

      // Moves of the group.
      const moved = yield* call("POST", `${groups}/${g}/move`, {
        token: s.token,
        body: { position: { before: { type: "site-section", id: s1 } } }
      })
      expect(moved.status).toBe(200)
      expect(yield* rootOrder(s, site.path)).toEqual(["G:G[Three,Two]", "S:One", "S:Four"])
      expect((yield* call("POST", `${groups}/${g}/move`, { token: s.token, body: {} })).status).toBe(200)
      expect(yield* rootOrder(s, site.path)).toEqual(["S:One", "S:Four", "G:G[Three,Two]"])
      expect(
        (yield* call("POST", `${groups}/${g}/move`, {
          token: s.token,
          body: { position: { after: { type: "site-section", id: s1 }, before: { type: "site-section", id: s4 } } }
        })).status
      ).toBe(200)
      expect(yield* rootOrder(s, site.path)).toEqual(["S:One", "G:G[Three,Two]", "S:Four"])
      const sectionMove = yield* call("POST", `${site.path}/sections/${s4}/move`, {
        token: s.token,
        body: { position: { before: { type: "site-section-group", id: g } } }
      })
      expect(sectionMove.status).toBe(200)
      expect(yield* rootOrder(s, site.path)).toEqual(["S:One", "S:Four", "G:G[Three,Two]"])
      expect(
        errorOf(
          yield* call("POST", `${site.path}/sections/${s1}/move`, {
            token: s.token,
            body: { position: { after: { type: "site-section", id: s1 }, before: { type: "site-section-group", id: g } } }
          })
        )
      ).toEqual([400, 400])
      expect(
        (yield* call("POST", `${groups}/${g}/move`, {
          token: s.token,
          body: { position: { before: { type: "site-section", id: s4 } } }
        })).status
      ).toBe(200)
      expect(yield* rootOrder(s, site.path)).toEqual(["S:One", "G:G[Three,Two]", "S:Four"])

      // Deleting the group puts its members at its place.
      expect((yield* call("DELETE", `${groups}/${g}`, { token: s.token })).status).toBe(204)
      expect(yield* rootOrder(s, site.path)).toEqual(["S:One", "S:Three", "S:Two", "S:Four"])
      expect((yield* call("GET", groups, { token: s.token })).body.count).toBe(0)
      expect((yield* call("GET", `${site.path}/sections/${s3}`, { token: s.token })).body.sectionGroup).toBeUndefined()
      expect(errorOf(yield* call("DELETE", `${groups}/${g}`, { token: s.token }))).toEqual([404, 404])
    }))

  it.effect("localized titles and descriptions: by GitBook's languages, at most 128 and 256 characters, replaced whole; a space's language", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const space = yield* newSpace(s, "Guide")
      const site = yield* newSite(s, { title: "Docs" })
      const section = yield* addSection(s, site.path, { spaceId: space, title: "Guides" })
      const group = (yield* call("POST", `${site.path}/section-groups`, { token: s.token, body: { title: "More", sections: [section] } }))
        .body.id as string
      const siteSpace = (yield* call("GET", `${site.path}/site-spaces`, { token: s.token })).body.items[0].id as string
      const patch = (path: string, body: unknown) => call("PATCH", `${site.path}/${path}`, { token: s.token, body })
      const targets = [`sections/${section}`, `section-groups/${group}`, `site-spaces/${siteSpace}`]
      for (const target of targets) {
        const set = yield* patch(target, { localizedTitle: { fr: chars(128, "é"), "pt-br": "Guias", "zh-tw": "指南" } })
        expect([set.status, set.body.localizedTitle], target).toEqual([200, { fr: chars(128, "é"), "pt-br": "Guias", "zh-tw": "指南" }])
        // Not one of GitBook's 39 languages, a text too long or empty, a text that is not a string: 400, nothing changed.
        for (const bad of [{ xx: "Guides" }, { "en-US": "Guides" }, { fr: chars(129) }, { fr: "" }, { fr: 1 }, ["fr"]]) {
          expect(errorOf(yield* patch(target, { localizedTitle: bad })), `${target} ${JSON.stringify(bad)}`).toEqual([400, 400])
        }
        expect((yield* patch(target, {})).body.localizedTitle).toEqual({ fr: chars(128, "é"), "pt-br": "Guias", "zh-tw": "指南" })
        // The map is replaced whole; an empty one takes every language out, and the field leaves the answer.
        expect((yield* patch(target, { localizedTitle: { ja: "ガイド" } })).body.localizedTitle).toEqual({ ja: "ガイド" })
        const cleared = yield* patch(target, { localizedTitle: {} })
        expect([cleared.status, "localizedTitle" in cleared.body]).toEqual([200, false])
      }
      const described = yield* patch(`sections/${section}`, { localizedDescription: { de: chars(256) } })
      expect([described.status, described.body.localizedDescription]).toEqual([200, { de: chars(256) }])
      expect(errorOf(yield* patch(`sections/${section}`, { localizedDescription: { de: chars(257) } }))).toEqual([400, 400])
      // The published structure shows them too.
      const published = (yield* call("GET", `${site.path}/published`, { token: s.token })).body
      expect(published.structure.structure[0].sections[0].localizedDescription).toEqual({ de: chars(256) })

      // A space's content language: one of the 39, kept by a PATCH that does not name it.
      const spacePath = `/v1/spaces/${space}`
      expect("language" in (yield* call("GET", spacePath, { token: s.token })).body).toBe(false)
      expect((yield* call("PATCH", spacePath, { token: s.token, body: { language: "pt-br" } })).body.language).toBe("pt-br")
      expect(errorOf(yield* call("PATCH", spacePath, { token: s.token, body: { language: "pt-BR" } }))).toEqual([400, 400])
      expect(errorOf(yield* call("PATCH", spacePath, { token: s.token, body: { language: null } }))).toEqual([400, 400])
      expect((yield* call("PATCH", spacePath, { token: s.token, body: { title: "Guía" } })).body.language).toBe("pt-br")
    }))

  it.effect("share links: name limits, key, active, search, delete", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const site = yield* newSite(s, { title: "Docs" })
      const links = `${site.path}/share-links`
      const create = (name: string) => call("POST", links, { token: s.token, body: { name } })
      const empty = yield* create("")
      expect([empty.status, empty.body.name, empty.body.active]).toEqual([201, "", true])
      const partners = yield* create(`Partners${chars(42, "P")}`)
      expect(partners.status).toBe(201)
      expect(errorOf(yield* create(chars(51, "P")))).toEqual([400, 400])
      const native = `${PUBLIC_URL}/sites/${s.organizationId}/${site.id}`
      const key = /^(.*)\?share=([A-Za-z0-9]{32})$/.exec(partners.body.urls.published)
      expect(key?.[1]).toBe(native)
      const otherKey = /\?share=([A-Za-z0-9]{32})$/.exec(empty.body.urls.published)?.[1]
      expect(otherKey).not.toBe(key?.[2])
      expect(partners.headers["location"]).toBe(`${PUBLIC_URL}${links}/${partners.body.id}`)
      expect(partners.body.urls.location).toBe(`${PUBLIC_URL}${links}/${partners.body.id}`)

      // Five letters a random key is all but sure not to hold.
      expect(ids(yield* call("GET", `${links}?search=PARTN`, { token: s.token }))).toEqual([partners.body.id])
      expect(ids(yield* call("GET", `${links}?search=${key?.[2]}`, { token: s.token }))).toEqual([partners.body.id])
      // By creation, then id: two links made in the same millisecond come in id order.
      const byCreation = [empty.body, partners.body].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : 1))
      expect(ids(yield* call("GET", links, { token: s.token }))).toEqual(byCreation.map((l) => l.id))
      const off = yield* call("PATCH", `${links}/${partners.body.id}`, { token: s.token, body: { active: false } })
      expect([off.status, off.body.active, off.body.urls.published]).toEqual([200, false, partners.body.urls.published])
      const renamed = yield* call("PATCH", `${links}/${partners.body.id}`, { token: s.token, body: { name: chars(51) } })
      expect(errorOf(renamed)).toEqual([400, 400])
      expect((yield* call("DELETE", `${links}/${partners.body.id}`, { token: s.token })).status).toBe(204)
      expect(errorOf(yield* call("DELETE", `${links}/${partners.body.id}`, { token: s.token }))).toEqual([404, 404])
      expect(ids(yield* call("GET", links, { token: s.token }))).toEqual([empty.body.id])
    }))

  it.effect("shareKey: only an active key of a published share-link site marks the URLs; any other key is ignored", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const site = yield* newSite(s, { title: "Docs", spaces: [guide], visibility: "share-link" })
      const reference = yield* addSection(s, site.path, { spaceId: api, title: "Reference" })
      const other = yield* newSite(s, { title: "Other", visibility: "share-link" })
      const link = (path: string) =>
        Effect.map(call("POST", `${path}/share-links`, { token: s.token, body: { name: "L" } }), (a) => ({
          id: a.body.id as string,
          key: /\?share=([A-Za-z0-9]{32})$/.exec(a.body.urls.published)?.[1] ?? ""
        }))
      const active = yield* link(site.path)
      const inactive = yield* link(site.path)
      yield* call("PATCH", `${site.path}/share-links/${inactive.id}`, { token: s.token, body: { active: false } })
      const foreign = yield* link(other.path)
      yield* call("POST", `${site.path}/publish`, { token: s.token })
      yield* call("POST", `${other.path}/publish`, { token: s.token })

      const reads = (key?: string) => {
        const q = key === undefined ? "" : `?shareKey=${key}`
        return Effect.all([
          call("GET", `${site.path}/published${q}`, { token: s.token }),
          call("GET", `${site.path}/site-spaces${q}`, { token: s.token }),
          call("GET", `${site.path}/sections${q}`, { token: s.token }),
          call("GET", `${site.path}/structure${q}`, { token: s.token }),
          call("GET", `${site.path}/sections/${reference}${q}`, { token: s.token }),
          call("GET", `/v1/spaces/${guide}${q}`, { token: s.token })
        ])
      }
      const bodies = (answers: ReadonlyArray<Answer>) => {
        for (const answer of answers) expect(answer.status).toBe(200)
        return answers.map((a) => a.body)
      }
      const plain = bodies(yield* reads())
      const publishedUrls = (value: unknown): Array<string> =>
        typeof value !== "object" || value === null
          ? []
          : Object.entries(value).flatMap(([k, v]) => (k === "published" && typeof v === "string" ? [v] : publishedUrls(v)))
      expect(publishedUrls(plain).length).toBeGreaterThan(8)
      for (const url of publishedUrls(plain)) expect(url).not.toContain("?share=")

      const shared = bodies(yield* reads(active.key))
      const sharedUrls = publishedUrls(shared)
      expect(sharedUrls).toHaveLength(publishedUrls(plain).length)
      for (const url of sharedUrls) expect(url).toMatch(new RegExp(`\\?share=${active.key}$`))
      expect(shared[0].site.urls.published).toBe(`${PUBLIC_URL}/sites/${s.organizationId}/${site.id}?share=${active.key}`)
      expect(shared[5].urls.published).toBe(`${PUBLIC_URL}/sites/${s.organizationId}/${site.id}?share=${active.key}`)

      for (const ignored of [inactive.key, foreign.key, "unknownKey_-1"]) {
        expect(bodies(yield* reads(ignored))).toEqual(plain)
      }
      // Another visibility: the active key is ignored.
      yield* call("PATCH", site.path, { token: s.token, body: { visibility: "public" } })
      const publicPlain = bodies(yield* reads())
      expect(bodies(yield* reads(active.key))).toEqual(publicPlain)
      // Unpublished: no published URL, key or not.
      yield* call("PATCH", site.path, { token: s.token, body: { visibility: "share-link" } })
      yield* call("POST", `${site.path}/unpublish`, { token: s.token })
      const hidden = bodies(yield* reads())
      expect(publishedUrls(hidden)).toEqual([])
      expect(bodies(yield* reads(active.key))).toEqual(hidden)

      for (const bad of ["bad%20key!", "a".repeat(129), "bad!key"]) {
        for (const answer of yield* reads(bad)) expect(errorOf(answer)).toEqual([400, 400])
      }
    }))

  it.effect("adaptive schema: the default, a PUT read back, invalid schemas name the pointer", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const site = yield* newSite(s, { title: "Docs" })
      const path = `${site.path}/adaptive-schema`
      const initial = yield* call("GET", path, { token: s.token })
      expect([initial.status, initial.body.object, initial.body.jsonSchema]).toEqual([200, "site-adaptive-schema", {
        type: "object",
        properties: {},
        additionalProperties: false
      }])
      const jsonSchema = {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: {
          plan: { type: "string", description: "The plan", enum: ["free", "pro"] },
          beta: { type: "boolean", description: "In the beta" },
          seats: { type: "number", description: "Seats" },
          tags: { type: "array", description: "Tags", items: { type: "string", description: "A tag" } },
          unsigned: {
            type: "object",
            description: "Unsigned claims of the site visitor.",
            properties: { locale: { type: "string", description: "Locale" } },
            additionalProperties: false
          }
        },
        additionalProperties: false
      }
      const put = yield* call("PUT", path, { token: s.token, body: { jsonSchema } })
      expect([put.status, put.body.jsonSchema]).toEqual([200, jsonSchema])
      expect((yield* call("GET", path, { token: s.token })).body.jsonSchema).toEqual(jsonSchema)

      const refused = (schema: unknown, pointer: string) =>
        Effect.gen(function*() {
          const answer = yield* call("PUT", path, { token: s.token, body: { jsonSchema: schema } })
          expect(errorOf(answer)).toEqual([400, 400])
          expect(message(answer)).toContain(pointer)
        })
      yield* refused({ ...jsonSchema, additionalProperties: true }, "/additionalProperties")
      yield* refused(
        { ...jsonSchema, properties: { plan: { type: "string", description: "Plan", enum: ["free", "free"] } } },
        "/properties/plan/enum"
      )
      yield* refused({ ...jsonSchema, properties: { beta: { type: "boolean" } } }, "/properties/beta")
      yield* refused({ ...jsonSchema, properties: { "bad-name": { type: "boolean", description: "x" } } }, "/properties/bad-name")
      // Refusals leave the schema as it was.
      expect((yield* call("GET", path, { token: s.token })).body.jsonSchema).toEqual(jsonSchema)
    }))

  it.effect("publishing auth: custom backend, a 43-character key, URLs set and cleared, regeneration", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const site = yield* newSite(s, { title: "Docs" })
      const path = `${site.path}/publishing/auth`
      const auth = yield* call("GET", path, { token: s.token })
      expect(auth.status).toBe(200)
      expect(auth.body).toEqual({ object: "publishing-auth", backend: "custom", privateKey: expect.stringMatching(/^.{43}$/) })
      const set = yield* call("PATCH", path, {
        token: s.token,
        body: { fallbackURL: "https://login.example.com/start", logoutURL: "https://login.example.com/out" }
      })
      expect(set.body).toEqual({
        object: "publishing-auth",
        backend: "custom",
        privateKey: auth.body.privateKey,
        fallbackURL: "https://login.example.com/start",
        logoutURL: "https://login.example.com/out"
      })
      const cleared = yield* call("PATCH", path, { token: s.token, body: { fallbackURL: null } })
      expect(cleared.body.fallbackURL).toBeUndefined()
      expect(cleared.body.logoutURL).toBe("https://login.example.com/out")
      expect(errorOf(yield* call("PATCH", path, { token: s.token, body: { backend: "integration" } }))).toEqual([400, 400])
      expect((yield* call("PATCH", path, { token: s.token, body: { backend: "custom" } })).status).toBe(200)
      const regenerated = yield* call("POST", `${path}/regenerate`, { token: s.token })
      expect(regenerated.status).toBe(200)
      expect(regenerated.body.privateKey).toMatch(/^.{43}$/)
      expect(regenerated.body.privateKey).not.toBe(auth.body.privateKey)
      expect((yield* call("GET", path, { token: s.token })).body.privateKey).toBe(regenerated.body.privateKey)
    }))

  it.effect("published view: shape, siteSpaces vs sections with groups, fixed customizations", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const site = yield* newSite(s, { title: "Docs", spaces: [guide, api] })
      const flat = yield* call("GET", `${site.path}/published`, { token: s.token })
      expect(flat.status).toBe(200)
      expect(flat.body).toMatchObject({
        object: "published-content-site",
        site: { object: "site", id: site.id },
        structure: { type: "siteSpaces" },
        customizations: {
          site: {
            title: "Docs",
            styling: {
              theme: "clean",
              primaryColor: { light: "#346DDB", dark: "#346DDB" },
              tint: { color: { light: "#787878", dark: "#787878" } },
              infoColor: { light: "#787878", dark: "#787878" },
              successColor: { light: "#00C950", dark: "#00C950" },
              warningColor: { light: "#FE9A00", dark: "#FE9A00" },
              dangerColor: { light: "#FB2C36", dark: "#FB2C36" },
              corners: "rounded",
              links: "default",
              font: "Inter",
              icons: "regular",
              sidebar: { background: "default", list: "default" },
              search: "prominent"
            },
            internationalization: { locale: "en" },
            favicon: {},
            header: { links: [] },
            footer: { groups: [] },
            themes: { default: "system", toggeable: true },
            pdf: { enabled: false },
            feedback: { enabled: false },
            aiSearch: { enabled: false },
            ai: { enabled: false }
          },
          siteSpaces: {}
        },
        scripts: []
      })
      expect(flat.body.customizations.site.announcement).toBeUndefined()
      expect(flat.body.structure.structure.map((x: { object: string; space: { id: string } }) => [x.object, x.space.id])).toEqual([
        ["site-space", guide],
        ["site-space", api]
      ])
      const structure = yield* call("GET", `${site.path}/structure`, { token: s.token })
      expect(structure.body).toEqual(flat.body.structure)

      const section = yield* addSection(s, site.path, { spaceId: api, title: "Reference" })
      const group = yield* call("POST", `${site.path}/section-groups`, { token: s.token, body: { title: "Devs", sections: [section] } })
      const sectioned = yield* call("GET", `${site.path}/published`, { token: s.token })
      expect(sectioned.body.structure.type).toBe("sections")
      const [first, second] = sectioned.body.structure.structure
      expect(first).toMatchObject({ object: "site-section", title: "Docs", default: true })
      expect(first.siteSpaces).toHaveLength(2)
      expect(second).toMatchObject({ object: "site-section-group", id: group.body.id, title: "Devs" })
      expect(second.sections.map((x: { id: string; siteSpaces: Array<unknown> }) => [x.id, x.siteSpaces.length])).toEqual([[section, 1]])
      expect(sectioned.body.site.siteSpaces).toBe(3)
    }))

  it.effect("more edges: PATCH limits, slugs, body references, aliases, paging of site spaces, unknown ids", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const punct = yield* newSpace(s, "!!!")
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const gone = yield* newSpace(s, "Gone")
      const site = yield* newSite(s, { title: "Docs", spaces: [punct, guide] })
      const patch = (body: unknown) => call("PATCH", site.path, { token: s.token, body })
      expect(errorOf(yield* patch({ title: "x" }))).toEqual([400, 400])
      expect((yield* patch({ title: chars(128) })).body.title).toBe(chars(128))
      expect(errorOf(yield* patch({ title: chars(129) }))).toEqual([400, 400])
      expect(errorOf(yield* patch({ visibility: "secret" }))).toEqual([400, 400])
      expect((yield* patch({ visibility: "unlisted" })).body.visibility).toBe("unlisted")
      expect((yield* patch({ adaptiveContent: { enabled: true } })).body.adaptiveContent).toEqual({ enabled: true })

      // A title with no slug characters gives the path `space`.
      const listed = yield* call("GET", `${site.path}/site-spaces`, { token: s.token })
      expect(listed.body.items.map((x: { path: string }) => x.path)).toEqual(["space", "guide"])
      // Paging through site spaces.
      yield* addSiteSpace(s, site.path, { spaceId: api })
      const seen: Array<string> = []
      let page: string | undefined = undefined
      for (let i = 0; i < 5; i++) {
        const answer: Answer = yield* call(
          "GET",
          `${site.path}/site-spaces?limit=1${page === undefined ? "" : `&page=${encodeURIComponent(page)}`}`,
          { token: s.token }
        )
        expect([answer.status, answer.body.count, answer.body.items.length]).toEqual([200, 3, 1])
        seen.push(...ids(answer))
        page = answer.body.next?.page
        if (page === undefined) break
      }
      expect(seen).toEqual(
        [...ids(listed), ...ids(yield* call("GET", `${site.path}/site-spaces?default=false`, { token: s.token }))].filter(
          (id, i, all) => all.indexOf(id) === i
        )
      )
      expect(errorOf(yield* call("GET", `${site.path}/site-spaces?page=forged`, { token: s.token }))).toEqual([400, 400])

      // Body references: a deleted space is 400 with the same message as an unknown one.
      expect((yield* call("DELETE", `/v1/spaces/${gone}`, { token: s.token })).status).toBe(204)
      const deleted = yield* call("POST", `${site.path}/site-spaces`, { token: s.token, body: { spaceId: gone } })
      const unknown = yield* call("POST", `${site.path}/site-spaces`, { token: s.token, body: { spaceId: "noSuchSpace" } })
      expect([errorOf(deleted), errorOf(unknown)]).toEqual([[400, 400], [400, 400]])
      expect(message(deleted).replaceAll(gone, "<id>")).toBe(message(unknown).replaceAll("noSuchSpace", "<id>"))

      // Sections: title 2-128 (default the space's), the siteSectionGroupId alias, unknown body references 400 (§0).
      const sections = `${site.path}/sections`
      expect(errorOf(yield* call("POST", sections, { token: s.token, body: { spaceId: api, title: "x" } }))).toEqual([400, 400])
      expect(errorOf(yield* call("POST", sections, { token: s.token, body: { spaceId: api, title: chars(129) } }))).toEqual([400, 400])
      const titled = yield* call("POST", sections, { token: s.token, body: { spaceId: api } })
      expect([titled.status, titled.body.title, titled.body.path]).toEqual([201, "API", "api"])
      const wide = yield* call("POST", sections, { token: s.token, body: { spaceId: guide, title: chars(128, "w") } })
      expect(wide.status).toBe(201)
      const groups = `${site.path}/section-groups`
      const group = yield* call("POST", groups, { token: s.token, body: { title: "G", icon: chars(50, "i") } })
      expect([group.status, group.body.icon]).toEqual([201, chars(50, "i")])
      expect(errorOf(yield* call("POST", groups, { token: s.token, body: { title: "H", icon: chars(51, "i") } }))).toEqual([400, 400])
      const aliased = yield* call("POST", sections, {
        token: s.token,
        body: { spaceId: guide, title: "Aliased", siteSectionGroupId: group.body.id }
      })
      expect([aliased.status, aliased.body.sectionGroup]).toEqual([201, group.body.id])
      expect(errorOf(yield* call("POST", `${groups}/${group.body.id}/sections`, { token: s.token, body: { sectionId: "noSuchSection" } })))
        .toEqual([400, 400])
      expect(errorOf(yield* call("POST", groups, { token: s.token, body: { title: "H", sections: ["noSuchSection"] } }))).toEqual([
        400,
        400
      ])
      // In a sectioned site, ?default=true is the default of the default section.
      const defaults = yield* call("GET", `${site.path}/site-spaces?default=true`, { token: s.token })
      expect([defaults.body.count, defaults.body.items[0].space.id]).toEqual([1, punct])
      // Deleting a section deletes its site spaces.
      const before = (yield* call("GET", site.path, { token: s.token })).body.siteSpaces as number
      expect((yield* call("DELETE", `${sections}/${titled.body.id}`, { token: s.token })).status).toBe(204)
      expect((yield* call("GET", site.path, { token: s.token })).body.siteSpaces).toBe(before - 1)

      // Unknown ids under a site, and another organization's site, answer the same 404.
      const missing = yield* call("GET", `${s.sites}/noSuchSite`, { token: s.token })
      const other = yield* setup
      const foreign = yield* call("GET", `${other.sites}/${site.id}`, { token: other.token })
      expect(errorOf(missing)).toEqual([404, 404])
      expect(message(foreign).replaceAll(site.id, "<id>")).toBe(message(missing).replaceAll("noSuchSite", "<id>"))
      expect(errorOf(yield* call("PATCH", `${site.path}/site-spaces/noSuchSiteSpace`, { token: s.token, body: { path: "x" } })))
        .toEqual([404, 404])
      expect(errorOf(yield* call("GET", `${sections}/noSuchSection`, { token: s.token }))).toEqual([404, 404])
      expect(errorOf(yield* call("PATCH", `${groups}/noSuchGroup`, { token: s.token, body: { title: "x" } }))).toEqual([404, 404])
      expect(errorOf(yield* call("PATCH", `${site.path}/share-links/noSuchLink`, { token: s.token, body: { active: true } })))
        .toEqual([404, 404])
    }))

  it.effect("probes: organization hostname in URLs, defaults by PATCH, freed names, filters with wildcards, groups after the last section", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const site = yield* newSite(s, { title: "50% off_sale", spaces: [guide, api] })
      expect((yield* call("PATCH", `/v1/orgs/${s.organizationId}`, { token: s.token, body: { hostname: "acme-docs" } })).status).toBe(200)
      const published = yield* call("POST", `${site.path}/publish`, { token: s.token })
      expect(published.body.urls.published).toBe(`${PUBLIC_URL}/sites/acme-docs/${site.id}`)

      // The site's defaultSiteSpace moves the default.
      const [guideSs, apiSs] = ids(yield* call("GET", `${site.path}/site-spaces`, { token: s.token }))
      expect((yield* call("PATCH", site.path, { token: s.token, body: { defaultSiteSpace: apiSs } })).status).toBe(200)
      expect(ids(yield* call("GET", `${site.path}/site-spaces?default=true`, { token: s.token }))).toEqual([apiSs])
      expect(ids(yield* call("GET", `${site.path}/site-spaces?default=false`, { token: s.token }))).toEqual([guideSs])
      const urls = (yield* call("GET", `${site.path}/site-spaces`, { token: s.token })).body.items.map((
        x: { urls: { published: string } }
      ) => x.urls.published)
      expect(urls).toEqual([`${PUBLIC_URL}/sites/acme-docs/${site.id}/guide`, `${PUBLIC_URL}/sites/acme-docs/${site.id}`])

      // Title filters are substrings, not patterns.
      const filtered = (title: string) => call("GET", `${s.sites}?title=${encodeURIComponent(title)}`, { token: s.token })
      expect(ids(yield* filtered("0% OFF_"))).toEqual([site.id])
      const plain = yield* newSite(s, { title: "Plain" })
      expect(ids(yield* filtered("%"))).toEqual([site.id])
      expect(ids(yield* filtered("_"))).toEqual([site.id])
      expect(ids(yield* filtered("p%n"))).toEqual([])

      // A deleted site's basename and proxy are free again.
      yield* call("PATCH", plain.path, { token: s.token, body: { basename: "help", proxy: "free.example.com/help" } })
      expect((yield* call("DELETE", plain.path, { token: s.token })).status).toBe(204)
      const reuse = yield* call("PATCH", site.path, { token: s.token, body: { basename: "HELP", proxy: "free.example.com/help" } })
      expect([reuse.status, reuse.body.basename]).toEqual([200, "HELP"])

      // Sections: defaultSiteSpace of a section must be one of its own; moves name siblings of the same section.
      const one = yield* addSection(s, site.path, { spaceId: guide, title: "One" })
      const sections = (yield* call("GET", `${site.path}/sections`, { token: s.token })).body.items
      const [dflt] = sections
      const oneSs = sections[1].siteSpaces[0].id as string
      expect(errorOf(yield* call("PATCH", `${site.path}/sections/${one}`, { token: s.token, body: { defaultSiteSpace: guideSs } })))
        .toEqual([400, 400])
      expect(errorOf(yield* call("PATCH", `${site.path}/sections/${dflt.id}`, { token: s.token, body: { defaultSiteSpace: oneSs } })))
        .toEqual([400, 400])
      const made = yield* call("PATCH", `${site.path}/sections/${dflt.id}`, { token: s.token, body: { defaultSiteSpace: guideSs } })
      expect(made.body.siteSpaces.map((x: { default: boolean }) => x.default)).toEqual([true, false])
      expect(
        errorOf(
          yield* call("POST", `${site.path}/site-spaces/${oneSs}/move`, {
            token: s.token,
            body: { position: { before: { type: "site-space", siteSpace: guideSs } } }
          })
        )
      ).toEqual([400, 400])

      // A group survives its sections? After the last section goes, the site has no sections and no groups.
      const group = yield* call("POST", `${site.path}/section-groups`, { token: s.token, body: { title: "G", sections: [one] } })
      expect(group.status).toBe(201)
      expect((yield* call("DELETE", `${site.path}/sections/${dflt.id}`, { token: s.token })).status).toBe(204)
      expect((yield* call("DELETE", `${site.path}/sections/${one}`, { token: s.token })).status).toBe(204)
      const after = yield* call("GET", `${site.path}/published`, { token: s.token })
      expect([after.body.structure, after.body.site.siteSpaces]).toEqual([{ type: "siteSpaces", structure: [] }, 0])
      expect((yield* call("GET", `${site.path}/section-groups`, { token: s.token })).body.count).toBe(0)
    }))

  it.effect("sectioned site: soft-deleted spaces hidden in sections, section conditions, page size limits", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const site = yield* newSite(s, { title: "Docs", spaces: [guide, api] })
      const section = yield* addSection(s, site.path, { spaceId: guide, title: "More" })
      const sectionSpaces = () =>
        Effect.map(
          call("GET", `${site.path}/sections`, { token: s.token }),
          (a) => a.body.items.map((x: { siteSpaces: Array<{ space: { id: string } }> }) => x.siteSpaces.map((y) => y.space.id))
        )
      expect(yield* sectionSpaces()).toEqual([[guide, api], [guide]])
      expect((yield* call("DELETE", `/v1/spaces/${api}`, { token: s.token })).status).toBe(204)
      expect(yield* sectionSpaces()).toEqual([[guide], [guide]])
      const published = yield* call("GET", `${site.path}/published`, { token: s.token })
      expect(published.body.structure.structure[0].siteSpaces.map((x: { space: { id: string } }) => x.space.id)).toEqual([guide])
      expect(published.body.site.siteSpaces).toBe(2)
      expect((yield* call("POST", `/v1/spaces/${api}/restore`, { token: s.token })).status).toBe(200)
      expect(yield* sectionSpaces()).toEqual([[guide, api], [guide]])

      const patch = (body: unknown) => call("PATCH", `${site.path}/sections/${section}`, { token: s.token, body })
      const localeIs = (n: number) => `visitor.claims.unsigned.locale == "${chars(n - 36, "l")}"`
      const condition = localeIs(1024)
      expect(condition).toHaveLength(1024)
      expect((yield* patch({ condition })).body.condition).toBe(condition)
      expect(errorOf(yield* patch({ condition: localeIs(1025) }))).toEqual([400, 400])
      expect(errorOf(yield* patch({ condition: "visitor.claims.(" }))).toEqual([400, 400])
      expect((yield* patch({ title: "Still" })).body.condition).toBe(condition)
      expect((yield* patch({ condition: null })).body.condition).toBeUndefined()

      expect((yield* call("GET", `${site.path}/sections?limit=1000`, { token: s.token })).status).toBe(200)
      expect(errorOf(yield* call("GET", `${site.path}/sections?limit=1001`, { token: s.token }))).toEqual([400, 400])
      expect(errorOf(yield* call("GET", `${s.sites}?limit=1001`, { token: s.token }))).toEqual([400, 400])
    }))

  it.effect("permissions: 401 without a token, 404 for outsiders and guests, roles read < create < admin", () =>
    Effect.gen(function*() {
      const s = yield* setup
      const member = (name: string, role: string | null) =>
        Effect.gen(function*() {
          const user = yield* newUser(name)
          yield* addMember(s.organizationId, s.admin, user, role)
          return user
        })
      const reader = yield* member("Rita Reader", "read")
      const creator = yield* member("Cris Creator", "create")
      const guest = yield* member("Gus Guest", null)
      const outsider = (yield* setup).admin
      const guide = yield* newSpace(s, "Guide")
      const api = yield* newSpace(s, "API")
      const site = yield* newSite(s, { title: "Docs", spaces: [guide] })
      const section = yield* addSection(s, site.path, { spaceId: api, title: "Reference" })
      const siteSpace = (yield* call("GET", `${site.path}/site-spaces`, { token: s.token })).body.items[0].id as string
      const group = (yield* call("POST", `${site.path}/section-groups`, { token: s.token, body: { title: "G" } })).body.id as string
      const link = (yield* call("POST", `${site.path}/share-links`, { token: s.token, body: { name: "L" } })).body.id as string

      const every = (user: TestUser | undefined) => {
        const token = user?.token
        return [
          call("GET", s.sites, { token }),
          call("POST", s.sites, { token, body: { title: "Mine" } }),
          call("GET", site.path, { token }),
          call("PATCH", site.path, { token, body: { title: "Theirs" } }),
          call("POST", `${site.path}/publish`, { token }),
          call("POST", `${site.path}/unpublish`, { token }),
          call("GET", `${site.path}/published`, { token }),
          call("GET", `${site.path}/structure`, { token }),
          call("GET", `${site.path}/adaptive-schema`, { token }),
          call("PUT", `${site.path}/adaptive-schema`, {
            token,
            body: { jsonSchema: { type: "object", properties: {}, additionalProperties: false } }
          }),
          call("GET", `${site.path}/publishing/auth`, { token }),
          call("PATCH", `${site.path}/publishing/auth`, { token, body: { logoutURL: null } }),
          call("POST", `${site.path}/publishing/auth/regenerate`, { token }),
          call("GET", `${site.path}/site-spaces`, { token }),
          call("POST", `${site.path}/site-spaces`, { token, body: { spaceId: guide, sectionId: section } }),
          call("PATCH", `${site.path}/site-spaces/${siteSpace}`, { token, body: { path: "x" } }),
          call("POST", `${site.path}/site-spaces/${siteSpace}/move`, { token, body: {} }),
          call("DELETE", `${site.path}/site-spaces/${siteSpace}`, { token }),
          call("GET", `${site.path}/sections`, { token }),
          call("GET", `${site.path}/sections/${section}`, { token }),
          call("PATCH", `${site.path}/sections/${section}`, { token, body: { title: "Ref" } }),
          call("GET", `${site.path}/section-groups`, { token }),
          call("PATCH", `${site.path}/section-groups/${group}`, { token, body: { title: "H" } }),
          call("POST", `${site.path}/section-groups/${group}/sections`, { token, body: { sectionId: section } }),
          call("GET", `${site.path}/share-links`, { token }),
          call("POST", `${site.path}/share-links`, { token, body: { name: "X" } }),
          call("PATCH", `${site.path}/share-links/${link}`, { token, body: { active: true } }),
          call("DELETE", `${site.path}/share-links/${link}`, { token }),
          call("DELETE", site.path, { token })
        ]
      }
      for (const request of every(undefined)) expect(errorOf(yield* request)).toEqual([401, 401])
      // The organization-level list and create name the organization: 404 too for outsiders and guests.
      for (const user of [outsider, guest]) {
        for (const request of every(user)) expect(errorOf(yield* request)).toEqual([404, 404])
      }
      // A share link of the site is no way in for an outsider either.
      expect(errorOf(yield* call("GET", `${site.path}/published?shareKey=abc`, { token: outsider.token }))).toEqual([404, 404])

      const as = (user: TestUser) => (method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", path: string, body?: unknown) =>
        Effect.map(call(method, path, { token: user.token, body }), (a) => a.status)
      const read = as(reader)
      expect(yield* read("GET", s.sites)).toBe(200)
      expect(yield* read("GET", site.path)).toBe(200)
      expect(yield* read("GET", `${site.path}/site-spaces`)).toBe(200)
      expect(yield* read("GET", `${site.path}/sections/${section}`)).toBe(200)
      expect(yield* read("GET", `${site.path}/published`)).toBe(200)
      // Share links carry their keys: listing them is for admins (§0 puts share links under admin).
      expect(yield* read("GET", `${site.path}/share-links`)).toBe(403)
      expect(yield* read("GET", `${site.path}/adaptive-schema`)).toBe(200)
      expect(yield* read("POST", `${site.path}/site-spaces`, { spaceId: guide, sectionId: section })).toBe(403)
      expect(yield* read("POST", s.sites, { title: "Mine" })).toBe(403)
      expect(yield* read("POST", `${site.path}/publish`)).toBe(403)

      const create = as(creator)
      expect(yield* create("POST", `${site.path}/publish`)).toBe(200)
      expect(yield* create("POST", `${site.path}/section-groups`, { title: "Mine" })).toBe(201)
      expect(yield* create("POST", `${site.path}/sections`, { spaceId: guide, title: "Creator's" })).toBe(201)
      expect(yield* create("POST", `${site.path}/unpublish`)).toBe(200)
      expect(yield* create("POST", s.sites, { title: "Mine" })).toBe(201)
      expect(yield* create("POST", `${site.path}/site-spaces`, { spaceId: guide, sectionId: section })).toBe(201)
      expect(yield* create("PATCH", `${site.path}/sections/${section}`, { title: "Ref" })).toBe(200)
      expect(yield* create("PATCH", site.path, { title: "Renamed" })).toBe(403)
      expect(yield* create("DELETE", site.path)).toBe(403)
      expect(yield* create("POST", `${site.path}/share-links`, { name: "X" })).toBe(403)
      expect(yield* create("PATCH", `${site.path}/share-links/${link}`, { active: false })).toBe(403)
      expect(
        yield* create("PUT", `${site.path}/adaptive-schema`, {
          jsonSchema: { type: "object", properties: {}, additionalProperties: false }
        })
      ).toBe(403)
      expect(yield* create("GET", `${site.path}/publishing/auth`)).toBe(403)

      const admin = as(s.admin)
      expect(yield* admin("PATCH", site.path, { title: "Renamed" })).toBe(200)
      expect(yield* admin("POST", `${site.path}/share-links`, { name: "X" })).toBe(201)
      expect(yield* admin("GET", `${site.path}/publishing/auth`)).toBe(200)
      expect(yield* admin("DELETE", site.path)).toBe(204)

      // The site's permissions as each role sees them.
      const again = yield* newSite(s, { title: "Again" })
      const permissions = (user: TestUser) =>
        Effect.map(call("GET", again.path, { token: user.token }), (a) => a.body.permissions as Record<string, boolean>)
      expect(yield* permissions(reader)).toMatchObject({ view: true, create: false, edit: false, admin: false })
      expect(yield* permissions(creator)).toMatchObject({ view: true, create: true, admin: false })
      expect(yield* permissions(s.admin)).toMatchObject({ view: true, create: true, edit: true, admin: true })
    }))
})
