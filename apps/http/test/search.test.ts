import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { scoreOf } from "@octavo/domain"
import { Effect } from "effect"
import { PageResults, SpaceResults } from "../src/search/Wire.js"
import { bodyAs, call, testServer } from "./harness.js"
import { chars, world } from "./scenario.js"

const q = (text: string) => encodeURIComponent(text)

layer(testServer(MemoryStorage), { excludeTestServices: true })("search over HTTP", (it) => {
  it.effect("space and organization search: shapes, order, sections with anchors, paging", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Handbook" } })
      const spaceId = space.body.id as string
      const other = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Runbooks" } })
      const edit = (id: string, changes: ReadonlyArray<unknown>) =>
        call("POST", `/v1/spaces/${id}/content`, { token: w.bob.token, body: { changes } })
      expect(
        (yield* edit(spaceId, [
          {
            operation: "insert_page",
            title: "Deployments",
            document: { markdown: "How we ship.\n\n## Rolling back\n\nUse the previous release to roll back." }
          },
          { operation: "insert_page", title: "Releases", document: { markdown: "Every release is tagged. We deploy on Tuesdays." } },
          { operation: "insert_page", title: "Holidays", document: { markdown: "Nothing about shipping." } }
        ])).status
      ).toBe(200)
      yield* edit(other.body.id, [{ operation: "insert_page", title: "Incident", document: { markdown: "Roll back first." } }])

      const found = yield* call("GET", `/v1/spaces/${spaceId}/search?query=${q("release")}`, { token: w.bob.token })
      expect(found.status).toBe(200)
      expect(found.body.count).toBe(2)
      // Found by its title (one term, in the title): the page matched on its own fields.
      expect(found.body.items[0]).toEqual({
        id: found.body.items[0].id,
        title: "Releases",
        description: "",
        path: "releases",
        score: scoreOf(1, 1),
        rank: 1,
        resultType: "page",
        sections: [{
          id: found.body.items[0].id,
          title: "Releases",
          path: "releases",
          score: 1,
          resultType: "section",
          body: "Every release is tagged. We deploy on Tuesdays.",
          urls: { app: `https://docs.test/s/${spaceId}/releases` }
        }],
        ancestors: [],
        urls: { app: `https://docs.test/s/${spaceId}/releases` }
      })
      expect(found.body.items[1]).toMatchObject({
        title: "Deployments",
        score: scoreOf(1, 0),
        rank: 2,
        resultType: "section",
        sections: [{
          id: "rolling-back",
          title: "Rolling back",
          path: "deployments#rolling-back",
          score: 1,
          resultType: "section",
          body: "Use the previous release to roll back.",
          urls: { app: `https://docs.test/s/${spaceId}/deployments#rolling-back` }
        }]
      })
      const firstPage = yield* call("GET", `/v1/spaces/${spaceId}/search?query=release&limit=1`, { token: w.bob.token })
      expect(bodyAs(PageResults, firstPage).items.map((p) => p.title)).toEqual(["Releases"])
      const secondPage = yield* call("GET", `/v1/spaces/${spaceId}/search?query=release&limit=1&page=${firstPage.body.next.page}`, {
        token: w.bob.token
      })
      expect(bodyAs(PageResults, secondPage).items.map((p) => [p.title, p.rank])).toEqual([["Deployments", 2]])
      expect(secondPage.body.next).toBeUndefined()
      // A page token belongs to its query.
      const misused = yield* call("GET", `/v1/spaces/${spaceId}/search?query=deploy&page=${firstPage.body.next.page}`, {
        token: w.bob.token
      })
      expect(misused.status).toBe(400)

      const organization = yield* call("GET", `/v1/orgs/${w.organizationId}/search?query=${q("roll back release")}`, { token: w.bob.token })
      expect(organization.status).toBe(200)
      // Spaces by their best page; each page keeps its rank among the pages of every space.
      expect(bodyAs(SpaceResults, organization).items.map((s) => [s.type, s.id, s.title, s.score, s.pages.map((p) => [p.title, p.rank])]))
        .toEqual([
          ["space", spaceId, "Handbook", scoreOf(3, 0), [["Deployments", 1], ["Releases", 3]]],
          ["space", other.body.id, "Runbooks", scoreOf(2, 0), [["Incident", 2]]]
        ])
      expect(organization.body.items[0].urls.app).toBe(`https://docs.test/s/${spaceId}`)
      expect(organization.body.items[0].pages[0].sections[0]).toMatchObject({ id: "rolling-back", path: "deployments#rolling-back" })
    }))

  it.effect("pages found name the pages above them, from the top down, and follow renames", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Guide" } })
      const edit = (changes: ReadonlyArray<unknown>) =>
        call("POST", `/v1/spaces/${space.body.id}/content`, { token: w.bob.token, body: { changes } })
      const created = yield* edit([{ operation: "insert_page", title: "Platform", ref: "platform" }])
      expect(created.status).toBe(200)
      const search = (query: string) => call("GET", `/v1/spaces/${space.body.id}/search?query=${q(query)}`, { token: w.bob.token })
      const platformId = (yield* search("platform")).body.items[0].id as string
      yield* edit([{ operation: "insert_page", title: "Kubernetes", into: platformId }])
      const kubernetesId = (yield* search("kubernetes")).body.items[0].id as string
      yield* edit([{
        operation: "insert_page",
        title: "Helm",
        description: "Charts for the cluster.",
        into: kubernetesId,
        document: { markdown: "Install the chart." }
      }])
      const helm = yield* search("chart")
      expect(
        helm.body.items.map((
          p: { title: string; description: string; path: string; ancestors: unknown }
        ) => [p.title, p.description, p.path, p.ancestors])
      )
        .toEqual([["Helm", "Charts for the cluster.", "platform/kubernetes/helm", [
          { id: platformId, title: "Platform" },
          { id: kubernetesId, title: "Kubernetes" }
        ]]])
      // Renaming a page above renames it in what is found below.
      yield* edit([{ operation: "update_page", page: platformId, title: "Operations" }])
      expect((yield* search("chart")).body.items[0].ancestors.map((a: { title: string }) => a.title)).toEqual(["Operations", "Kubernetes"])
      const organization = yield* call("GET", `/v1/orgs/${w.organizationId}/search?query=chart`, { token: w.bob.token })
      expect(organization.body.items[0].pages[0].ancestors.map((a: { title: string }) => a.title)).toEqual(["Operations", "Kubernetes"])
    }))

  it.effect("limits, authentication and roles", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Handbook" } })
      const paths = [`/v1/spaces/${space.body.id}/search`, `/v1/orgs/${w.organizationId}/search`]
      for (const path of paths) {
        expect((yield* call("GET", `${path}?query=${chars(512)}`, { token: w.bob.token })).status).toBe(200)
        const long = yield* call("GET", `${path}?query=${chars(513)}`, { token: w.bob.token })
        expect(long.status).toBe(400)
        expect(long.body.error.message).toMatch(/query: must be at most 512 characters, got 513/)
        expect((yield* call("GET", path, { token: w.bob.token })).status).toBe(400)
        // GitBook's query has no lower bound: an empty one finds nothing.
        const empty = yield* call("GET", `${path}?query=`, { token: w.bob.token })
        expect([empty.status, empty.body.items, empty.body.count]).toEqual([200, [], 0])
        expect((yield* call("GET", `${path}?query=x&limit=0`, { token: w.bob.token })).status).toBe(400)
        expect((yield* call("GET", `${path}?query=x&limit=1001`, { token: w.bob.token })).status).toBe(400)
        expect((yield* call("GET", `${path}?query=x&page=forged`, { token: w.bob.token })).status).toBe(400)
        expect((yield* call("GET", `${path}?query=x`)).status).toBe(401)
        expect((yield* call("GET", `${path}?query=x`, { token: "nope" })).status).toBe(401)
        expect((yield* call("GET", `${path}?query=x`, { token: w.carol.token })).status).toBe(404)
      }
      // A guest sees no space (404) and may not search the organization (403).
      expect((yield* call("GET", `${paths[0]}?query=x`, { token: w.guest.token })).status).toBe(404)
      expect((yield* call("GET", `${paths[1]}?query=x`, { token: w.guest.token })).status).toBe(403)
      // A deleted space is not searched.
      yield* call("POST", `/v1/spaces/${space.body.id}/content`, {
        token: w.alice.token,
        body: { changes: [{ operation: "insert_page", title: "Zebra crossing" }] }
      })
      expect((yield* call("GET", `${paths[1]}?query=zebra`, { token: w.bob.token })).body.count).toBe(1)
      expect((yield* call("DELETE", `/v1/spaces/${space.body.id}`, { token: w.alice.token })).status).toBe(204)
      expect((yield* call("GET", `${paths[1]}?query=zebra`, { token: w.bob.token })).body.count).toBe(0)
      expect((yield* call("GET", `${paths[0]}?query=zebra`, { token: w.bob.token })).status).toBe(404)
    }))
})
