import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
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
            type: "insert_page",
            title: "Deployments",
            document: { markdown: "How we ship.\n\n## Rolling back\n\nUse the previous release to roll back." }
          },
          { type: "insert_page", title: "Releases", document: { markdown: "Every release is tagged. We deploy on Tuesdays." } },
          { type: "insert_page", title: "Holidays", document: { markdown: "Nothing about shipping." } }
        ])).status
      ).toBe(200)
      yield* edit(other.body.id, [{ type: "insert_page", title: "Incident", document: { markdown: "Roll back first." } }])

      const found = yield* call("GET", `/v1/spaces/${spaceId}/search?query=${q("release")}`, { token: w.bob.token })
      expect(found.status).toBe(200)
      expect(found.body.count).toBe(2)
      expect(found.body.items[0]).toEqual({
        id: found.body.items[0].id,
        title: "Releases",
        path: "releases",
        sections: [{
          id: found.body.items[0].id,
          title: "Releases",
          path: "releases",
          body: "Every release is tagged. We deploy on Tuesdays.",
          urls: { app: `https://docs.test/s/${spaceId}/releases` }
        }],
        urls: { app: `https://docs.test/s/${spaceId}/releases` }
      })
      expect(found.body.items[1]).toMatchObject({
        title: "Deployments",
        sections: [{
          id: "rolling-back",
          title: "Rolling back",
          path: "deployments#rolling-back",
          body: "Use the previous release to roll back.",
          urls: { app: `https://docs.test/s/${spaceId}/deployments#rolling-back` }
        }]
      })
      const firstPage = yield* call("GET", `/v1/spaces/${spaceId}/search?query=release&limit=1`, { token: w.bob.token })
      expect(bodyAs(PageResults, firstPage).items.map((p) => p.title)).toEqual(["Releases"])
      const secondPage = yield* call("GET", `/v1/spaces/${spaceId}/search?query=release&limit=1&page=${firstPage.body.next.page}`, {
        token: w.bob.token
      })
      expect(bodyAs(PageResults, secondPage).items.map((p) => p.title)).toEqual(["Deployments"])
      expect(secondPage.body.next).toBeUndefined()
      // A page token belongs to its query.
      const misused = yield* call("GET", `/v1/spaces/${spaceId}/search?query=deploy&page=${firstPage.body.next.page}`, {
        token: w.bob.token
      })
      expect(misused.status).toBe(400)

      const organization = yield* call("GET", `/v1/orgs/${w.organizationId}/search?query=${q("roll back release")}`, { token: w.bob.token })
      expect(organization.status).toBe(200)
      expect(bodyAs(SpaceResults, organization).items.map((s) => [s.id, s.title, s.pages.map((p) => p.title)])).toEqual([
        [spaceId, "Handbook", ["Deployments", "Releases"]],
        [other.body.id, "Runbooks", ["Incident"]]
      ])
      expect(organization.body.items[0].urls.app).toBe(`https://docs.test/s/${spaceId}`)
      expect(organization.body.items[0].pages[0].sections[0]).toMatchObject({ id: "rolling-back", path: "deployments#rolling-back" })
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
        expect((yield* call("GET", `${path}?query=`, { token: w.bob.token })).status).toBe(400)
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
        body: { changes: [{ type: "insert_page", title: "Zebra crossing" }] }
      })
      expect((yield* call("GET", `${paths[1]}?query=zebra`, { token: w.bob.token })).body.count).toBe(1)
      expect((yield* call("DELETE", `/v1/spaces/${space.body.id}`, { token: w.alice.token })).status).toBe(204)
      expect((yield* call("GET", `${paths[1]}?query=zebra`, { token: w.bob.token })).body.count).toBe(0)
      expect((yield* call("GET", `${paths[0]}?query=zebra`, { token: w.bob.token })).status).toBe(404)
    }))
})
