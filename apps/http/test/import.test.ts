import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { LinkList } from "../src/content/Wire.js"
import { type PageObject, RevisionObject } from "../src/content/Wire.js"
import { PageResults } from "../src/search/Wire.js"
import { bodyAs, call, testServer } from "./harness.js"
import { addMember, newUser, world } from "./scenario.js"
import { testSite } from "./site.js"

const newSpace = (organizationId: string, token: string, body: Record<string, unknown> = {}) =>
  Effect.map(call("POST", `/v1/orgs/${organizationId}/spaces`, { token, body: { title: "Imported", ...body } }), (r) => r.body.id as string)

const contentOf = (spaceId: string, token: string) =>
  Effect.map(call("GET", `/v1/spaces/${spaceId}/content`, { token }), (r) => bodyAs(RevisionObject, r))

/** A page tree as [path, title, children] rows. */
type Outline = ReadonlyArray<readonly [string, string, Outline]>
const outline = (pages: ReadonlyArray<PageObject>): Outline => pages.map((p) => [p.path, p.title, outline(p.pages)] as const)

layer(testServer(MemoryStorage, { fetch: { allow: ["loopback"] } }), { excludeTestServices: true })(
  "importing a website over HTTP",
  (it) => {
    it.scoped("a site becomes nested markdown pages with its image, links pointing inside", () =>
      Effect.gen(function*() {
        const site = yield* testSite
        const w = yield* world
        const spaceId = yield* newSpace(w.organizationId, w.alice.token)
        const imported = yield* call("POST", `/v1/spaces/${spaceId}/content/import`, {
          token: w.bob.token,
          body: { source: "website", url: `${site.origin}/docs` }
        })
        expect(imported.status).toBe(200)
        // Four pages and the image; the broken link counts but is not imported.
        expect(imported.body).toEqual({ revision: imported.body.revision, importedResources: 5, totalResources: 6 })
        const content = yield* contentOf(spaceId, w.bob.token)
        expect(content.id).toBe(imported.body.revision)
        expect(outline(content.pages)).toEqual([
          ["docs", "Acme Docs", [
            ["docs/guide", "Guide", [["docs/guide/install", "Installation", []]]],
            ["docs/reference", "Reference", []]
          ]]
        ])
        expect(site.requested).not.toContain("/blog/post.html")
        const docs = content.pages[0] as PageObject
        const [guide, reference] = docs.pages as [PageObject, PageObject]
        const install = guide.pages[0] as PageObject
        // Links between imported pages and to the image are stored by id, as every link is.
        expect(docs.markdown).toContain(`[guide](/pages/${guide.id})`)
        expect(docs.markdown).toContain(`(/pages/${install.id}#steps)`)
        expect(docs.markdown).toContain(`(${site.origin}/docs/missing.html)`)
        expect(guide.markdown).toContain("```sh\nacme init --yes\nacme deploy\n```")
        expect(guide.markdown).toMatch(/[*-] Plan\n\s+[*-] Budget\n[*-] Build/)
        // Columns are padded to their widest cell.
        expect(install.markdown).toMatch(/\| OS +\| Command +\|/)
        expect(install.markdown).toMatch(/\| Linux +\| `apt install acme` +\|/)
        expect(install.markdown).toContain(`![Diagram](/files/${content.files[0]?.id})`)
        expect(reference.markdown).toContain(`[the start](/pages/${docs.id})`)
        expect(content.files).toMatchObject([{
          name: "diagram.png",
          contentType: "image/png",
          size: 33,
          dimensions: { width: 3, height: 2 }
        }])
        const links = bodyAs(LinkList, yield* call("GET", `/v1/spaces/${spaceId}/links`, { token: w.bob.token }))
        expect(links.stats.broken.total).toBe(0)
        expect(links.items.filter((l) => l.targetReference.kind === "page").length).toBe(4)
        expect(links.items.filter((l) => l.targetReference.kind === "file").length).toBe(1)
        // The imported pages are searchable at once.
        const found = yield* call("GET", `/v1/spaces/${spaceId}/search?query=zeppelin`, { token: w.bob.token })
        expect(bodyAs(PageResults, found).items.map((p) => p.path)).toEqual(["docs/guide/install"])
        // A second import goes beside the first: slugs stay unique.
        const again = yield* call("POST", `/v1/spaces/${spaceId}/content/import`, {
          token: w.bob.token,
          body: { source: "website", url: `${site.origin}/docs/` }
        })
        expect(again.status).toBe(200)
        const twice = yield* contentOf(spaceId, w.bob.token)
        expect(twice.pages.map((p) => p.path)).toEqual(["docs", "docs-2"])
        expect(twice.pages[1]?.markdown).toContain(`[guide](/pages/${twice.pages[1]?.pages[0]?.id})`)
        expect(twice.files.map((f) => f.name)).toEqual(["diagram.png", "diagram-2.png"])
      }))

    it.scoped("into a change request: the space changes only when it is merged", () =>
      Effect.gen(function*() {
        const site = yield* testSite
        const w = yield* world
        const spaceId = yield* newSpace(w.organizationId, w.alice.token)
        const cr = yield* call("POST", `/v1/spaces/${spaceId}/change-requests`, { token: w.bob.token, body: { subject: "Import" } })
        const imported = yield* call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/import`, {
          token: w.bob.token,
          body: { source: "website", url: `${site.origin}/docs/guide/install.html` }
        })
        expect(imported.status).toBe(200)
        // The guide holds the page and is in the same directory: it comes along.
        expect(imported.body).toMatchObject({ importedResources: 3, totalResources: 3 })
        const crContent = bodyAs(
          RevisionObject,
          yield* call("GET", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { token: w.bob.token })
        )
        expect(crContent.id).toBe(imported.body.revision)
        expect(crContent.pages.map((p) => [p.title, p.pages.map((c) => c.title)])).toEqual([["Guide", ["Installation"]]])
        expect((yield* contentOf(spaceId, w.bob.token)).pages).toEqual([])
        expect((yield* call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`, { token: w.alice.token })).body.result)
          .toBe("merge")
        expect((yield* contentOf(spaceId, w.bob.token)).pages.map((p) => p.title)).toEqual(["Guide"])
        // A merged change request takes no more imports.
        const late = yield* call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/import`, {
          token: w.bob.token,
          body: { source: "website", url: `${site.origin}/docs/` }
        })
        expect(late.status).toBe(409)
      }))

    it.scoped("a page is decoded in the character set its content type names", () =>
      Effect.gen(function*() {
        const site = yield* testSite
        const w = yield* world
        const spaceId = yield* newSpace(w.organizationId, w.alice.token)
        const imported = yield* call("POST", `/v1/spaces/${spaceId}/content/import`, {
          token: w.alice.token,
          body: { source: "website", url: `${site.origin}/latin/` }
        })
        expect(imported.body).toMatchObject({ importedResources: 1, totalResources: 1 })
        const pages = (yield* contentOf(spaceId, w.alice.token)).pages
        expect(pages.map((page) => [page.title, page.markdown])).toEqual([["Café", "Crème brûlée.\n"]])
      }))

    it.scoped("refusals write nothing: bad input, a page that fails, a locked space, callers without the right", () =>
      Effect.gen(function*() {
        const site = yield* testSite
        const w = yield* world
        const reader = yield* newUser("Rita Reader")
        yield* addMember(w.organizationId, w.alice, reader, "read")
        const spaceId = yield* newSpace(w.organizationId, w.alice.token)
        const before = (yield* contentOf(spaceId, w.alice.token)).id
        const path = `/v1/spaces/${spaceId}/content/import`
        const attempt = (token: string | undefined, body: unknown) => call("POST", path, { token, body })
        const good = { source: "website", url: `${site.origin}/docs/` }
        const refusals: ReadonlyArray<[string | undefined, unknown, number, RegExp?]> = [
          [w.bob.token, { source: "notion", url: good.url }, 400, /source/],
          [w.bob.token, { url: good.url }, 400, /source/],
          [w.bob.token, { source: "website" }, 400, /url/],
          [w.bob.token, { source: "website", url: "ftp://example.com/" }, 400, /url/],
          [w.bob.token, { source: "website", url: `${site.origin}/docs/missing.html` }, 400, /status 404/],
          [w.bob.token, { source: "website", url: `${site.origin}/docs/data.json` }, 400, /not an HTML page/],
          [w.bob.token, { source: "website", url: "http://127.0.0.1:1/" }, 400, /url/],
          [undefined, good, 401],
          ["not-a-token", good, 401],
          [w.carol.token, good, 404],
          [w.guest.token, good, 404],
          [reader.token, good, 403]
        ]
        for (const [token, body, status, message] of refusals) {
          const answer = yield* attempt(token, body)
          expect([answer.status, body]).toEqual([status, body])
          if (message !== undefined) expect(answer.body.error.message).toMatch(message)
        }
        yield* call("PATCH", `/v1/spaces/${spaceId}`, { token: w.alice.token, body: { editMode: "locked" } })
        expect((yield* attempt(w.alice.token, good)).status).toBe(409)
        expect((yield* contentOf(spaceId, w.alice.token)).id).toBe(before)
        expect(site.requested.filter((p) => p === "/docs/")).toEqual([])
      }))
  }
)

layer(testServer(MemoryStorage), { excludeTestServices: true })("the fetch guard of imports", (it) => {
  it.scoped("refuses loopback unless allowed, and cloud metadata addresses always", () =>
    Effect.gen(function*() {
      const site = yield* testSite
      const w = yield* world
      const spaceId = yield* newSpace(w.organizationId, w.alice.token)
      for (const url of [`${site.origin}/docs/`, "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://10.0.0.1/"]) {
        const answer = yield* call("POST", `/v1/spaces/${spaceId}/content/import`, {
          token: w.alice.token,
          body: { source: "website", url }
        })
        expect([url, answer.status]).toEqual([url, 400])
        expect(answer.body.error.message).toMatch(/^url: /)
      }
      expect(site.requested).toEqual([])
      expect((yield* contentOf(spaceId, w.alice.token)).pages).toEqual([])
    }))
})
