import type { SiteRedirectOrderBy } from "@gitbook/api/client"
import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgStorage } from "@octavo/adapters-pg"
import { MAX_BULK_REDIRECTS, MAX_SITE_REDIRECTS, type StoragePorts } from "@octavo/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { call, PUBLIC_URL, testServer } from "./harness.js"
import { clientFor } from "./officialClient.js"
import { publishedSite, spaceWithPages, web } from "./readerWeb.js"
import { addMember, newUser } from "./scenario.js"

// Site redirects (issue 39): GitBook's site-redirects API, and the published site answering a path that names no page
// with the redirect's target. Every API answer is checked against GitBook's schema (setupConformance.ts).

const elsewhere = (path = "/moved") => ({ kind: "external", url: `https://example.com${path}` })

/** An organization with a space of three pages on a published site, as its admin. */
const setup = (fields: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const admin = yield* newUser("Ada Admin")
    const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
    const guide = yield* spaceWithPages(organizationId, admin.token, "Guide", [
      { title: "Welcome" },
      { title: "Install" },
      { title: "Usage" }
    ])
    const site = yield* publishedSite(organizationId, admin, [guide.spaceId], { basename: "docs", ...fields })
    return { admin, organizationId, guide, site, redirects: `${site.path}/redirects`, base: `/sites/${organizationId}/docs` }
  })

const suite = (name: string, storage: Layer.Layer<StoragePorts, unknown>) =>
  layer(testServer(storage), { excludeTestServices: true, timeout: 120_000 })(name, (it) => {
    it.effect("create, list, change, resolve and delete a redirect; GitBook's shapes and statuses", () =>
      Effect.gen(function*() {
        const { admin, guide, organizationId, redirects, site } = yield* setup()
        const token = admin.token
        const made = yield* call("POST", redirects, {
          token,
          body: { source: "/old/install", destination: { kind: "path", spaceId: guide.spaceId, path: "install" } }
        })
        expect(made.status).toBe(201)
        expect(made.body).toMatchObject({
          object: "site-redirect",
          source: "/old/install",
          draft: false,
          captureWildcard: false,
          permanent: false,
          destination: { kind: "site-page", pageId: guide.ids["Install"] }
        })
        expect(made.body.updatedAt).toBeUndefined()
        expect(made.headers["location"]).toBe(`${PUBLIC_URL}${redirects}/${made.body.id as string}`)

        const resolved = yield* call("GET", `${site.path}/redirect?source=${encodeURIComponent("/old/install")}`, { token })
        expect(resolved.status).toBe(200)
        expect(resolved.body).toEqual({ redirect: made.body, target: `${PUBLIC_URL}/sites/${organizationId}/docs/install` })
        expect((yield* call("GET", `${site.path}/redirect?source=%2Fnothing`, { token })).status).toBe(404)

        const changed = yield* call("PATCH", `${redirects}/${made.body.id as string}`, {
          token,
          body: { permanent: true, destination: elsewhere() }
        })
        expect(changed.status).toBe(200)
        expect(changed.body).toMatchObject({ permanent: true, destination: elsewhere(), updatedAt: expect.any(String) })

        const second = (yield* call("POST", redirects, { token, body: { source: "/a-first", destination: elsewhere("/a") } })).body
        const listed = yield* call("GET", `${redirects}?orderBy=source`, { token })
        expect(listed.status).toBe(200)
        expect(listed.body.items.map((r: { id: string }) => r.id)).toEqual([second.id, made.body.id])
        expect(listed.body.count).toBe(2)
        // Newest first, one at a time.
        const one = yield* call("GET", `${redirects}?limit=1`, { token })
        expect(one.body.items.map((r: { id: string }) => r.id)).toEqual([second.id])
        const next = yield* call("GET", `${redirects}?limit=1&page=${one.body.next.page as string}`, { token })
        expect(next.body.items.map((r: { id: string }) => r.id)).toEqual([made.body.id])
        expect((yield* call("GET", `${redirects}?search=INSTALL`, { token })).body.count).toBe(1)
        expect((yield* call("GET", `${redirects}?draft=true`, { token })).body.count).toBe(0)

        const removed = yield* call("DELETE", `${redirects}/${made.body.id as string}`, { token })
        expect(removed.status).toBe(204)
        expect((yield* call("GET", redirects, { token })).body.count).toBe(1)
        // A redirect that is not there: done already, as GitBook answers it.
        expect((yield* call("DELETE", `${redirects}/${made.body.id as string}`, { token })).status).toBe(204)
        expect((yield* call("PATCH", `${redirects}/${made.body.id as string}`, { token, body: { draft: true } })).status).toBe(404)
      }))

    it.effect("validates sources and destinations, each limit at its edge; a taken source is 409", () =>
      Effect.gen(function*() {
        const { admin, redirects } = yield* setup()
        const other = yield* setup()
        const token = admin.token
        const create = (body: unknown) => call("POST", redirects, { token, body })
        const longest = `/${"a".repeat(511)}`
        expect((yield* create({ source: longest, destination: elsewhere() })).status).toBe(201)
        for (
          const source of [`/${"a".repeat(512)}`, "old", "/", "/*", "/a/*/b", "/a b", "/a//b", "/a/", "/%zz", ""]
        ) {
          const answer = yield* create({ source, destination: elsewhere() })
          expect([source, answer.status]).toEqual([source, 400])
          expect(answer.body.error.message).toContain("source")
        }
        for (const source of ["/guide/*", "/guide*", "/a%20b", "/v1.2/~x+y"]) {
          expect([source, (yield* create({ source, destination: elsewhere() })).status]).toEqual([source, 201])
        }
        for (
          const destination of [
            { kind: "external", url: "ftp://example.com/" },
            { kind: "site-section", siteSectionId: "nope" },
            { kind: "path", spaceId: other.guide.spaceId, path: "install" },
            { kind: "elsewhere" }
          ]
        ) {
          const answer = yield* create({ source: "/x", destination })
          expect([destination.kind, answer.status]).toEqual([destination.kind, 400])
        }
        // One source per site (in any spelling); a draft of it is another redirect.
        const taken = yield* create({ source: "/a%2Db", destination: elsewhere() })
        expect(taken.body.source).toBe("/a-b")
        const again = yield* create({ source: "/a-b", destination: elsewhere() })
        expect([again.status, again.body.error.code]).toEqual([409, 409])
        expect((yield* create({ source: "/a-b", draft: true, destination: elsewhere() })).status).toBe(201)
        // Bulk: at most MAX_BULK_REDIRECTS operations, each with its result.
        const items = (n: number, prefix: string) =>
          Array.from({ length: n }, (_, i) => ({ source: `/${prefix}-${i}`, destination: elsewhere() }))
        const bulk = yield* call("PUT", redirects, { token, body: { redirects: items(MAX_BULK_REDIRECTS, "bulk") } })
        expect([bulk.status, bulk.body.results.length]).toEqual([200, MAX_BULK_REDIRECTS])
        expect(bulk.body.results[0]).toEqual({ status: "created", source: "/bulk-0", draft: false, id: expect.any(String) })
        const tooMany = yield* call("PUT", redirects, { token, body: { redirects: items(MAX_BULK_REDIRECTS + 1, "over") } })
        expect(tooMany.status).toBe(400)
        expect((yield* call("PUT", redirects, { token, body: { redirects: [] } })).status).toBe(400)
      }))

    it.effect("readers read, editors write; no token is 401; another organization's site is 404", () =>
      Effect.gen(function*() {
        const { admin, organizationId, redirects, site } = yield* setup()
        const made = (yield* call("POST", redirects, { token: admin.token, body: { source: "/old", destination: elsewhere() } })).body
        const reader = yield* newUser("Rita Reader")
        const editor = yield* newUser("Ed Editor")
        yield* addMember(organizationId, admin, reader, "read")
        yield* addMember(organizationId, admin, editor, "edit")
        const stranger = yield* newUser("Sam Stranger")
        const strangersOrg = (yield* call("POST", "/v1/orgs", { token: stranger.token, body: { title: "Other" } })).body.id as string
        expect((yield* call("GET", redirects, { token: reader.token })).body.count).toBe(1)
        expect((yield* call("GET", `${site.path}/redirect?source=%2Fold`, { token: reader.token })).status).toBe(200)
        const write = { source: "/new", destination: elsewhere() }
        expect((yield* call("POST", redirects, { token: reader.token, body: write })).status).toBe(403)
        expect((yield* call("DELETE", `${redirects}/${made.id as string}`, { token: reader.token })).status).toBe(403)
        expect((yield* call("POST", redirects, { token: editor.token, body: write })).status).toBe(201)
        expect((yield* call("GET", redirects)).status).toBe(401)
        expect((yield* call("GET", redirects, { token: stranger.token })).status).toBe(404)
        // The site named under the stranger's own organization is not found either.
        const through = redirects.replace(organizationId, strangersOrg)
        expect((yield* call("GET", through, { token: stranger.token })).status).toBe(404)
        expect((yield* call("PATCH", `${through}/${made.id as string}`, { token: stranger.token, body: { draft: true } })).status)
          .toBe(404)
      }))

    it.effect("the published site answers a path that names no page with its redirect, and 404 where none matches", () =>
      Effect.gen(function*() {
        const { admin, base, guide, redirects } = yield* setup()
        const token = admin.token
        const create = (body: Record<string, unknown>) =>
          Effect.map(call("POST", redirects, { token, body }), (answer) => expect(answer.status).toBe(201))
        yield* create({ source: "/old/install", destination: { kind: "path", spaceId: guide.spaceId, path: "install" } })
        yield* create({ source: "/legacy/*", captureWildcard: true, destination: elsewhere("/archive") })
        yield* create({ source: "/usage", destination: elsewhere("/never") })
        yield* create({ source: "/gone", permanent: true, destination: elsewhere("/gone") })
        yield* create({ source: "/drafted", draft: true, destination: elsewhere("/draft") })
        yield* create({ source: "/docs-*", destination: elsewhere("/prefixed") })

        for (const path of ["/old/install", "/old/install/"]) {
          const answer = yield* web(`${base}${path}`)
          expect([path, answer.status, answer.headers["location"]]).toEqual([path, 307, `${base}/install`])
        }
        // A permanent redirect on a public site is 308 (GitBook's `permanent`).
        expect([(yield* web(`${base}/gone`)).status, (yield* web(`${base}/gone`)).headers["location"]]).toEqual([
          308,
          "https://example.com/gone"
        ])
        // The wildcard captures what follows it.
        const captured = yield* web(`${base}/legacy/a/b%20c`)
        expect([captured.status, captured.headers["location"]]).toEqual([307, "https://example.com/archive/a/b%20c"])
        const prefixed = yield* web(`${base}/docs-v2`)
        expect([prefixed.status, prefixed.headers["location"]]).toEqual([307, "https://example.com/prefixed"])
        // A page that exists is served; a draft, a path the wildcard does not cover and an unknown path are 404.
        expect((yield* web(`${base}/usage`)).status).toBe(200)
        for (const path of ["/drafted", "/legacy", "/nothing/here", "/old"]) {
          expect([path, (yield* web(`${base}${path}`)).status]).toEqual([path, 404])
        }
      }))
  })

suite("site redirects (memory)", MemoryStorage)
suite("site redirects (PGlite)", PgStorage.pipe(Layer.provide(PgliteClient({}))))

const run = <A>(request: () => Promise<A>) => Effect.promise(request)

layer(testServer(MemoryStorage), { excludeTestServices: true, timeout: 120_000 })("site redirects at their limits", (it) => {
  it.effect(
    `a site holds ${MAX_SITE_REDIRECTS} redirects: the next one is 409, in a bulk request an error result`,
    () =>
      Effect.gen(function*() {
        const { admin, redirects } = yield* setup()
        const token = admin.token
        for (let batch = 0; batch < MAX_SITE_REDIRECTS / MAX_BULK_REDIRECTS; batch++) {
          const body = {
            redirects: Array.from({ length: MAX_BULK_REDIRECTS }, (_, i) => ({ source: `/p${batch}-${i}`, destination: elsewhere() }))
          }
          const answer = yield* call("PUT", redirects, { token, body })
          expect(answer.body.results.filter((r: { status: string }) => r.status !== "created")).toEqual([])
        }
        const over = yield* call("POST", redirects, { token, body: { source: "/over", destination: elsewhere() } })
        expect([over.status, over.body.error.message]).toEqual([
          409,
          `This site has ${MAX_SITE_REDIRECTS} redirects, the most a site may have`
        ])
        const bulk = yield* call("PUT", redirects, { token, body: { redirects: [{ source: "/over", destination: elsewhere() }] } })
        expect(bulk.body.results).toEqual([{ status: "error", source: "/over", draft: false, error: expect.stringContaining("the most") }])
        expect((yield* call("GET", `${redirects}?limit=1`, { token })).body.count).toBe(MAX_SITE_REDIRECTS)
      }),
    120_000
  )

  it.effect("through GitBook's own client: create, list, update, resolve, bulk upsert, delete", () =>
    Effect.gen(function*() {
      const { admin, guide, organizationId, site } = yield* setup()
      const siteId = site.id
      const client = (yield* clientFor(admin.token)).orgs
      const created = yield* run(() =>
        client.createSiteRedirect(organizationId, siteId, {
          source: "/start",
          destination: { kind: "path", spaceId: guide.spaceId, path: "welcome" }
        })
      )
      expect(created.status).toBe(201)
      expect(created.data).toMatchObject({ object: "site-redirect", source: "/start", destination: { kind: "site-page" } })
      const listed = yield* run(() => client.listSiteRedirects(organizationId, siteId, { orderBy: "source" as SiteRedirectOrderBy }))
      expect(listed.data.items.map((r) => r.id)).toEqual([created.data.id])
      const updated = yield* run(() => client.updateSiteRedirectById(organizationId, siteId, created.data.id, { permanent: true }))
      expect(updated.data.permanent).toBe(true)
      const resolved = yield* run(() => client.getSiteRedirectBySource(organizationId, siteId, { source: "/start" }))
      expect(resolved.data.target).toBe(`${PUBLIC_URL}/sites/${organizationId}/docs/welcome`)
      const bulk = yield* run(() =>
        client.bulkUpsertSiteRedirects(organizationId, siteId, {
          redirects: [{ source: "/start", destination: null }, { source: "/later", intent: "draft", destination: elsewhere() as never }]
        })
      )
      expect(bulk.data.results.map((r) => [r.status, r.source, r.draft])).toEqual([["deleted", "/start", false], [
        "created",
        "/later",
        true
      ]])
      const draft = bulk.data.results[1] as { readonly id: string }
      const removed = yield* Effect.either(Effect.tryPromise(() => client.deleteSiteRedirectById(organizationId, siteId, draft.id)))
      expect(Either.isRight(removed)).toBe(true)
      const left = yield* run(() => client.listSiteRedirects(organizationId, siteId, { draft: true }))
      expect(left.data.items).toEqual([])
    }))
})
