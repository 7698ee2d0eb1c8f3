import type { SiteInsightsEvent } from "@gitbook/api/client"
import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testServer } from "./harness.js"
import { clientFor } from "./officialClient.js"
import { newUser } from "./scenario.js"

// Insights through GitBook's own client: its page views tracked, aggregated over a fixed range,
// and segmented by the site's adaptive schema; every answer checked against GitBook's schema.

const run = <A>(request: () => Promise<A>) => Effect.promise(request)

layer(testServer(MemoryStorage), { excludeTestServices: true })("insights through GitBook's official client", (it) => {
  it.effect("track page views, count them by page, and segment visitors by plan", () =>
    Effect.gen(function*() {
      const admin = yield* newUser("Ada Analytics")
      const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
      const client = yield* clientFor(admin.token)
      const site = (yield* run(() => client.orgs.createSite(organizationId, { title: "Docs" }))).data
      yield* run(() =>
        client.orgs.updateSiteAdaptiveSchema(organizationId, site.id, {
          jsonSchema: {
            type: "object",
            properties: { plan: { type: "string", description: "Plan", enum: ["free", "pro"] } },
            additionalProperties: false
          }
        })
      )
      const hour = 3_600_000
      const start = Math.floor(Date.now() / hour) * hour - 2 * hour
      // Each path is a page of one space; "/gone" resolved to none (a 404), like the reader records it.
      const pages: Record<string, string | null> = { "/start": "page-start", "/api": "page-api", "/gone": null }
      const view = (visitor: string, path: string, plan: string, minute: number): SiteInsightsEvent => ({
        type: "page_view",
        timestamp: new Date(start + minute * 60_000).toISOString(),
        session: {
          visitorId: visitor,
          sessionId: `${visitor}-1`,
          cookies: {},
          userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
          language: "en",
          referrer: null,
          visitorAuthClaims: { plan }
        },
        location: {
          url: `https://docs.acme.test${path}`,
          siteSection: null,
          siteSpace: null,
          siteShareKey: null,
          space: pages[path] === null ? null : "space-docs",
          revision: null,
          page: pages[path] ?? null
        }
      })
      const tracked = yield* run(() =>
        client.orgs.trackEventsInSiteById(organizationId, site.id, {
          events: [
            view("ann", "/start", "pro", 1),
            view("ann", "/api", "pro", 2),
            view("bob", "/start", "free", 3),
            view("bob", "/gone", "free", 4)
          ]
        })
      )
      expect(tracked.status).toBe(204)
      const counted = yield* run(() =>
        client.orgs.aggregateSiteEvents(organizationId, site.id, {
          range: { from: new Date(start).toISOString(), to: new Date(start + hour).toISOString() },
          groupBy: [{ column: "urlPath" }],
          select: [{ column: "urlPath" }, { column: "visitorsCount" }]
        })
      )
      expect(counted.data.columns).toEqual([
        { column: "urlPath", values: ["/start", "/api", "/gone"] },
        { column: "visitorsCount", values: [2, 1, 1] }
      ])
      // By page: each a page of a space, as GitBook answers it; an event of no space is null.
      const byPage = yield* run(() =>
        client.orgs.aggregateSiteEvents(organizationId, site.id, {
          range: { from: new Date(start).toISOString(), to: new Date(start + hour).toISOString() },
          groupBy: [{ column: "page" }],
          select: [{ column: "page" }, { column: "visitorsCount" }, { column: "eventsCount" }],
          where: [{
            column: "page",
            values: [{ page: "page-start", space: "space-docs" }, { page: "page-api", space: "space-docs" }, null]
          }]
        })
      )
      expect(byPage.data.columns).toEqual([
        // The tie on visitors goes to the lesser page: none first.
        { column: "page", values: [{ page: "page-start", space: "space-docs" }, null, { page: "page-api", space: "space-docs" }] },
        { column: "visitorsCount", values: [2, 1, 1] },
        { column: "eventsCount", values: [2, 1, 1] }
      ])
      const segments = yield* run(() => client.orgs.listSiteVisitorSegments(organizationId, site.id))
      expect(segments.data.items.map((s) => [s.title, s.visitors, s.events])).toEqual([["plan: free", 1, 2], ["plan: pro", 1, 2]])
    }))
})
