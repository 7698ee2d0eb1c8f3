import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgServerClientInFreshSchema, PgStorage } from "@octavo/adapters-pg"
import { encodeCursor, OrganizationId, organizationSearchListKey, type StoragePorts } from "@octavo/domain"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { PageResults, SpaceResults } from "../src/search/Wire.js"
import { bodyAs, call, testServer } from "./harness.js"
import { world } from "./scenario.js"
import { testSite } from "./site.js"

/** Import a site, search it, change it through a change request, search again: on one storage. */
const importAndSearch = (storage: Layer.Layer<StoragePorts, unknown>) =>
  Effect.gen(function*() {
    const site = yield* testSite
    const w = yield* world
    const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Acme" } })
    const spaceId = space.body.id as string
    const imported = yield* call("POST", `/v1/spaces/${spaceId}/content/import`, {
      token: w.bob.token,
      body: { source: "website", url: `${site.origin}/docs/` }
    })
    expect(imported.body).toMatchObject({ importedResources: 5, totalResources: 6 })
    const search = (path: string, query: string) => call("GET", `${path}/search?query=${encodeURIComponent(query)}`, { token: w.bob.token })
    const found = yield* search(`/v1/spaces/${spaceId}`, "zeppelin package")
    expect(bodyAs(PageResults, found).items.map((p) => [p.path, p.sections.map((s) => s.path)])).toEqual([["docs/guide/install", [
      "docs/guide/install#steps"
    ]]])
    const install = found.body.items[0].id as string
    const cr = yield* call("POST", `/v1/spaces/${spaceId}/change-requests`, { token: w.bob.token, body: { subject: "Rename" } })
    yield* call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      token: w.bob.token,
      body: { changes: [{ operation: "update_page", page: install, document: { markdown: "Install the blimp package." } }] }
    })
    expect((yield* search(`/v1/spaces/${spaceId}`, "blimp")).body.count).toBe(0)
    expect((yield* call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`, { token: w.alice.token })).body.result).toBe(
      "merge"
    )
    expect(bodyAs(PageResults, yield* search(`/v1/spaces/${spaceId}`, "blimp")).items.map((p) => p.id)).toEqual([install])
    expect((yield* search(`/v1/spaces/${spaceId}`, "zeppelin")).body.count).toBe(0)
    const organization = yield* search(`/v1/orgs/${w.organizationId}`, "guide")
    expect(bodyAs(SpaceResults, organization).items.map((s) => [s.id, s.pages[0]?.path])).toEqual([[spaceId, "docs/guide"]])
    // A second space: organization results page one space at a time, even for a query ending in "@key".
    const other = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Other" } })
    yield* call("POST", `/v1/spaces/${other.body.id}/content`, {
      token: w.alice.token,
      body: { changes: [{ operation: "insert_page", title: "Guide to ssh@key" }] }
    })
    const orgSearch = (query: string, page?: string) =>
      call(
        "GET",
        `/v1/orgs/${w.organizationId}/search?query=${encodeURIComponent(query)}&limit=1${page === undefined ? "" : `&page=${page}`}`,
        { token: w.bob.token }
      )
    const firstPage = yield* orgSearch("guide ssh@key")
    const secondPage = yield* orgSearch("guide ssh@key", firstPage.body.next.page)
    expect([firstPage.status, secondPage.status, firstPage.body.count]).toEqual([200, 200, 2])
    expect([firstPage, secondPage].flatMap((answer) => bodyAs(SpaceResults, answer).items.map((s) => s.title)).sort()).toEqual([
      "Acme",
      "Other"
    ])
    // Page tokens are not signed: whatever number one holds is a position, never a server error.
    for (const forged of [1.5, 1e300, 3_000_000_000, -1]) {
      const token = encodeCursor(organizationSearchListKey(OrganizationId.make(w.organizationId), "guide"), [forged, "x"])
      const answer = yield* call("GET", `/v1/orgs/${w.organizationId}/search?query=guide&page=${token}`, { token: w.bob.token })
      expect([forged, answer.status]).toEqual([forged, 200])
      if (forged !== 1.5) expect([forged, answer.body.items.length]).toEqual([forged, forged < 0 ? 2 : 0])
    }
  }).pipe(Effect.provide(testServer(storage, { fetch: { allow: ["loopback"] } })), Effect.scoped)

describe("search and import on every storage", () => {
  it.live("memory", () => importAndSearch(MemoryStorage), 60_000)
  it.live("embedded PostgreSQL (PGlite)", () => importAndSearch(PgStorage.pipe(Layer.provide(PgliteClient()))), 60_000)
  const url = process.env["OCTAVO_TEST_DATABASE_URL"]
  if (url !== undefined && url !== "") {
    it.live("PostgreSQL server", () => importAndSearch(PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(url)))), 60_000)
  }
})
