import type { SiteVisibility } from "@gitbook/api/client"
import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { call, PUBLIC_URL, testServer } from "./harness.js"
import { clientFor } from "./officialClient.js"
import { newUser } from "./scenario.js"

// A site built through GitBook's own client (`@gitbook/api`), as the "done when" states it:
// two sections in a group, three site spaces with conditions, a share link, an adaptive schema, published,
// and its published structure read back. Every request and answer is the client's, checked against GitBook's schema.

const run = <A>(request: () => Promise<A>) => Effect.promise(request)

/** The status a refused request answers, as the client's error carries it. */
const refusal = <A>(request: () => Promise<A>) =>
  Effect.map(Effect.either(Effect.tryPromise(request)), (result) =>
    Either.match(result, {
      onLeft: (error) => (error.error as { readonly code?: number }).code,
      onRight: () => "succeeded" as const
    }))

const adaptiveSchema = {
  type: "object" as const,
  properties: {
    plan: { type: "string" as const, description: "The visitor's plan", enum: ["free", "pro", "enterprise"] },
    beta: { type: "boolean" as const, description: "In the beta programme" }
  },
  additionalProperties: false as const
}

const setup = Effect.gen(function*() {
  const admin = yield* newUser("Ada Admin")
  const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
  const client = yield* clientFor(admin.token)
  const space = (title: string) => Effect.map(run(() => client.orgs.createSpace(organizationId, { title })), (r) => r.data.id)
  return { admin, organizationId, client, space }
})

layer(testServer(MemoryStorage), { excludeTestServices: true })("sites through GitBook's official client", (it) => {
  it.effect("build a site with a group of two sections, conditioned site spaces, a share link and a schema; publish; read it", () =>
    Effect.gen(function*() {
      const { client, organizationId, space } = yield* setup
      const orgs = client.orgs
      const guide = yield* space("Getting Started")
      const beta = yield* space("Beta Features")
      const api = yield* space("API Reference")

      const created = yield* run(() =>
        orgs.createSite(organizationId, { title: "Acme Help Center", visibility: "share-link" as SiteVisibility })
      )
      expect(created.status).toBe(201)
      const site = created.data
      expect(created.headers.get("location")).toBe(site.urls.location)
      expect(site).toMatchObject({ object: "site", type: "basic", title: "Acme Help Center", published: false, siteSpaces: 0 })

      // Two sections: the first on an empty site becomes the default.
      const guides = (yield* run(() => orgs.addSectionToSite(organizationId, site.id, { spaceId: guide, title: "Guides", icon: "book" })))
        .data
      expect(guides).toMatchObject({ object: "site-section", title: "Guides", path: "guides", default: true, icon: "book" })
      const reference = (yield* run(() => orgs.addSectionToSite(organizationId, site.id, { spaceId: api, title: "Reference" }))).data
      expect(reference).toMatchObject({ title: "Reference", path: "reference", default: false })
      const betaAdded = yield* run(() => orgs.addSpaceToSite(organizationId, site.id, { spaceId: beta, sectionId: guides.id }))
      expect(betaAdded.status).toBe(201)
      expect(betaAdded.data).toMatchObject({ object: "site-space", path: "beta-features", section: guides.id, default: false })

      // Both sections into one group, Reference first; in Guides, Beta moved before Getting Started.
      const group = (yield* run(() =>
        orgs.addSectionGroupToSite(organizationId, site.id, { title: "Documentation", icon: "folder", sections: [reference.id, guides.id] })
      )).data
      expect(group.sections.map((s) =>
        s.id
      )).toEqual([reference.id, guides.id])
      const guideSiteSpace = guides.siteSpaces[0]!.id
      const moved = (yield* run(() =>
        orgs.moveSiteSpace(organizationId, site.id, betaAdded.data.id, {
          position: { before: { type: "site-space", siteSpace: guideSiteSpace } }
        })
      )).data
      expect(moved).toMatchObject({ id: betaAdded.data.id, section: guides.id, default: false })
      const described = (yield* run(() =>
        orgs.updateSiteSectionById(organizationId, site.id, guides.id, { description: "How to get going" })
      )).data
      expect(described.description).toBe("How to get going")
      const regrouped = (yield* run(() =>
        orgs.updateSiteSectionGroupById(organizationId, site.id, group.id, { title: "Docs" })
      )).data
      expect(regrouped.title).toBe("Docs")

      // Conditions on the three site spaces, over the claims of the adaptive schema.
      const schema = (yield* run(() => orgs.updateSiteAdaptiveSchema(organizationId, site.id, { jsonSchema: adaptiveSchema }))).data
      expect(schema).toMatchObject({ object: "site-adaptive-schema", jsonSchema: adaptiveSchema })
      const adaptive = (yield* run(() => orgs.updateSiteById(organizationId, site.id, { adaptiveContent: { enabled: true } }))).data
      expect(adaptive.adaptiveContent).toEqual({ enabled: true })
      const guidesSpaces = (yield* run(() => orgs.listSiteSpaces(organizationId, site.id, { default: true }))).data
      expect(guidesSpaces.items.map((s) => s.id)).toEqual([guideSiteSpace])
      const apiSiteSpace = reference.siteSpaces[0]!.id
      const conditions = {
        guide: "visitor.claims.plan != \"free\" || visitor.claims.beta == true",
        beta: "visitor.claims.beta == true",
        api: "[\"pro\", \"enterprise\"].includes(visitor.claims.plan)"
      }
      for (
        const [id, condition] of [[guideSiteSpace, conditions.guide], [betaAdded.data.id, conditions.beta], [apiSiteSpace, conditions.api]]
      ) {
        const updated = (yield* run(() => orgs.updateSiteSpaceById(organizationId, site.id, id!, { condition }))).data
        expect(updated.condition).toBe(condition)
      }
      const renamed = (yield* run(() => orgs.updateSiteSpaceById(organizationId, site.id, betaAdded.data.id, { path: "beta" }))).data
      expect(renamed.path).toBe("beta")

      // A share link; its key only in its published URL.
      const link = yield* run(() => orgs.createSiteShareLink(organizationId, site.id, { name: "Partners" }))
      expect(link.status).toBe(201)
      const key = /\?share=([A-Za-z0-9]{32})$/.exec(link.data.urls.published ?? "")?.[1] ?? ""
      expect(key).toHaveLength(32)
      const links = (yield* run(() => orgs.listSiteShareLinks(organizationId, site.id, { search: "Partn" }))).data
      expect(links.items.map((l) => [l.id, l.name, l.active])).toEqual([[link.data.id, "Partners", true]])

      const published = yield* run(() => orgs.publishSite(organizationId, site.id))
      expect(published.status).toBe(200)
      if (!("object" in published.data)) throw new Error("publish answers the site, never a checkout")
      expect(published.data).toMatchObject({ published: true, siteSpaces: 3 })
      const native = `${PUBLIC_URL}/sites/${organizationId}/${site.id}`
      expect(published.data.urls.published).toBe(native)

      const listed = (yield* run(() => orgs.listSites(organizationId, { published: true }))).data
      expect(listed.items.map((s) => s.id)).toEqual([site.id])
      expect((yield* run(() => orgs.getSiteById(organizationId, site.id))).data.title).toBe("Acme Help Center")

      // The published structure, as a visitor with the share link resolves it.
      const content = (yield* run(() => orgs.getPublishedContentSite(organizationId, site.id, { shareKey: key }))).data
      expect(content.object).toBe("published-content-site")
      expect(content.site.urls.published).toBe(`${native}?share=${key}`)
      if (content.structure.type !== "sections") throw new Error("a sectioned site has a sections structure")
      expect(content.structure.structure).toHaveLength(1)
      const [root] = content.structure.structure
      if (root?.object !== "site-section-group") throw new Error("the root holds the group")
      expect([root.id, root.title, root.icon]).toEqual([group.id, "Docs", "folder"])
      const shape = root.sections.map((section) => ({
        title: section.title,
        default: section.default,
        sectionGroup: section.sectionGroup,
        url: section.urls.published,
        siteSpaces: section.siteSpaces.map((s) => ({
          space: s.space.id,
          path: s.path,
          default: s.default,
          condition: s.condition,
          url: s.urls.published
        }))
      }))
      expect(shape).toEqual([
        {
          title: "Reference",
          default: false,
          sectionGroup: group.id,
          url: `${native}/reference?share=${key}`,
          siteSpaces: [{
            space: api,
            path: "api-reference",
            default: true,
            condition: conditions.api,
            url: `${native}/reference?share=${key}`
          }]
        },
        {
          title: "Guides",
          default: true,
          sectionGroup: group.id,
          url: `${native}?share=${key}`,
          siteSpaces: [
            { space: beta, path: "beta", default: false, condition: conditions.beta, url: `${native}/beta?share=${key}` },
            { space: guide, path: "getting-started", default: true, condition: conditions.guide, url: `${native}?share=${key}` }
          ]
        }
      ])
      expect(root.children).toEqual(root.sections)
      expect(content.customizations.site.styling.primaryColor).toEqual({ light: "#346DDB", dark: "#346DDB" })

      // Without the key the same structure, with plain URLs.
      const plain = (yield* run(() => orgs.getPublishedContentSite(organizationId, site.id))).data
      expect(plain.site.urls.published).toBe(native)
      expect(JSON.stringify(plain.structure)).toBe(JSON.stringify(content.structure).replaceAll(`?share=${key}`, ""))
      const readSchema = (yield* run(() => orgs.getSiteAdaptiveSchema(organizationId, site.id))).data
      expect(readSchema.jsonSchema).toEqual(adaptiveSchema)
    }))

  // GitBook's updateSiteSectionById names the field `siteSectionGroupId`; conventions-2 §1.2 names only the POST alias.
  it.effect("GitBook's siteSectionGroupId on a section PATCH moves the section into the group and back", () =>
    Effect.gen(function*() {
      const { client, organizationId, space } = yield* setup
      const orgs = client.orgs
      const guide = yield* space("Guide")
      const site = (yield* run(() => orgs.createSite(organizationId, { title: "Docs" }))).data
      const one = (yield* run(() => orgs.addSectionToSite(organizationId, site.id, { spaceId: guide, title: "One" }))).data
      const two = (yield* run(() => orgs.addSectionToSite(organizationId, site.id, { spaceId: guide, title: "Two" }))).data
      const group = (yield* run(() => orgs.addSectionGroupToSite(organizationId, site.id, { title: "G", sections: [one.id] }))).data
      const moved = (yield* run(() => orgs.updateSiteSectionById(organizationId, site.id, two.id, { siteSectionGroupId: group.id })))
        .data
      expect(moved.sectionGroup).toBe(group.id)
      const back = (yield* run(() => orgs.updateSiteSectionById(organizationId, site.id, two.id, { siteSectionGroupId: null }))).data
      expect(back.sectionGroup).toBeUndefined()
    }))

  it.effect("GitBook's SiteSectionPointer {type, siteSection} positions a section move", () =>
    Effect.gen(function*() {
      const { client, organizationId, space } = yield* setup
      const orgs = client.orgs
      const guide = yield* space("Guide")
      const site = (yield* run(() => orgs.createSite(organizationId, { title: "Docs" }))).data
      const one = (yield* run(() => orgs.addSectionToSite(organizationId, site.id, { spaceId: guide, title: "One" }))).data
      const two = (yield* run(() => orgs.addSectionToSite(organizationId, site.id, { spaceId: guide, title: "Two" }))).data
      // Octavo reads `{type:"site-section", id}` (conventions-2 §1.2, after api.md); GitBook's client sends `siteSection`.
      const moved = yield* refusal(() =>
        orgs.moveSiteSection(organizationId, site.id, two.id, { position: { before: { type: "site-section", siteSection: one.id } } })
      )
      expect(moved).toBe("succeeded")
      const sections = (yield* run(() => orgs.listSiteSections(organizationId, site.id))).data
      expect(sections.items.map((s) => s.title)).toEqual(["Two", "One"])
    }))

  it.effect("the client sees GitBook's refusals: limits, a duplicate site space, another organization", () =>
    Effect.gen(function*() {
      const { client, organizationId, space } = yield* setup
      const orgs = client.orgs
      const guide = yield* space("Guide")
      const site = (yield* run(() => orgs.createSite(organizationId, { title: "Docs", spaces: [guide] }))).data
      expect(yield* refusal(() => orgs.createSite(organizationId, { title: "x" }))).toBe(400)
      expect(yield* refusal(() => orgs.addSpaceToSite(organizationId, site.id, { spaceId: guide }))).toBe(409)
      expect(yield* refusal(() => orgs.addSectionGroupToSite(organizationId, site.id, { title: "Early" }))).toBe(412)
      expect(yield* refusal(() => orgs.createSiteShareLink(organizationId, site.id, { name: "n".repeat(51) }))).toBe(400)
      expect(
        yield* refusal(() =>
          orgs.updateSiteAdaptiveSchema(organizationId, site.id, {
            jsonSchema: { ...adaptiveSchema, additionalProperties: true as unknown as false }
          })
        )
      ).toBe(400)
      const outsider = yield* setup
      expect(yield* refusal(() => outsider.client.orgs.getSiteById(organizationId, site.id))).toBe(404)
      expect(yield* refusal(() => outsider.client.orgs.getPublishedContentSite(organizationId, site.id))).toBe(404)
    }))
})
