import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, PUBLIC_URL, testServer } from "./harness.js"
import { addMember, newUser } from "./scenario.js"

// Sites over HTTP, one call per endpoint (conventions-2.md §1): statuses, the shapes GitBook's schemas
// check (the conformance setup fails the file on any mismatch) and the URLs Octavo builds.

layer(testServer(MemoryStorage), { excludeTestServices: true })("sites over HTTP", (it) => {
  it.effect("every endpoint answers once with GitBook's shapes", () =>
    Effect.gen(function*() {
      const admin = yield* newUser("Sally Sites")
      const organizationId = (yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Acme" } })).body.id as string
      const token = admin.token
      const space = (title: string) =>
        Effect.map(call("POST", `/v1/orgs/${organizationId}/spaces`, { token, body: { title } }), (a) => a.body.id as string)
      const guide = yield* space("Guide")
      const api = yield* space("API Reference")
      const sites = `/v1/orgs/${organizationId}/sites`

      const created = yield* call("POST", sites, { token, body: { title: "Docs", spaces: [guide] } })
      expect(created.status).toBe(201)
      const siteId = created.body.id as string
      const site = `${sites}/${siteId}`
      expect(created.headers["location"]).toBe(`${PUBLIC_URL}${site}`)
      expect(created.body).toMatchObject({
        object: "site",
        type: "basic",
        appliedType: "basic",
        title: "Docs",
        visibility: "public",
        published: false,
        siteSpaces: 1,
        adaptiveContent: { enabled: false },
        urls: { location: `${PUBLIC_URL}${site}`, app: `${PUBLIC_URL}/o/${organizationId}/sites/${siteId}` }
      })
      expect(created.body.urls.published).toBeUndefined()
      expect(created.body.features).toHaveLength(9)
      expect(created.body.features[0]).toEqual({ id: "sites-sections", plan: "basic", frozen: false })

      const listed = yield* call("GET", `${sites}?type=basic&type=premium&published=false&space=${guide}`, { token })
      expect([listed.status, listed.body.count, listed.body.items[0].id]).toEqual([200, 1, siteId])
      expect((yield* call("GET", `${sites}?published=yes`, { token })).status).toBe(400)
      expect((yield* call("GET", `${sites}?type=nope`, { token })).status).toBe(400)
      expect((yield* call("GET", `${sites}?type=premium`, { token })).body.count).toBe(0)

      expect((yield* call("GET", site, { token })).body.id).toBe(siteId)
      const patched = yield* call("PATCH", site, { token, body: { basename: "docs", proxy: "example.com/docs" } })
      expect(patched.status).toBe(200)
      expect(patched.body.basename).toBe("docs")
      expect(patched.body.proxy).toEqual({ origin: "example.com/docs", target: `${PUBLIC_URL}/sites/${organizationId}/docs` })
      const published = yield* call("POST", `${site}/publish`, { token })
      expect([published.status, published.body.published, published.body.urls.published]).toEqual([200, true, "https://example.com/docs"])
      yield* call("PATCH", site, { token, body: { proxy: null } })

      // Site spaces.
      const spacesPath = `${site}/site-spaces`
      const addedSpace = yield* call("POST", spacesPath, { token, body: { spaceId: api } })
      expect(addedSpace.status).toBe(201)
      const apiSiteSpace = addedSpace.body.id as string
      expect(addedSpace.headers["location"]).toBe(`${PUBLIC_URL}${spacesPath}/${apiSiteSpace}`)
      expect(addedSpace.body).toMatchObject({
        object: "site-space",
        path: "api-reference",
        default: false,
        draft: false,
        title: "API Reference",
        space: { object: "space", id: api },
        urls: { published: `${PUBLIC_URL}/sites/${organizationId}/docs/api-reference` }
      })
      const listedSpaces = yield* call("GET", `${spacesPath}?default=true`, { token })
      expect([listedSpaces.status, listedSpaces.body.count, listedSpaces.body.items[0].space.id]).toEqual([200, 1, guide])
      expect((yield* call("GET", `${spacesPath}?shareKey=bad!key`, { token })).status).toBe(400)
      const updatedSpace = yield* call("PATCH", `${spacesPath}/${apiSiteSpace}`, {
        token,
        body: { path: "api", condition: "visitor.claims.beta == true" }
      })
      expect([updatedSpace.status, updatedSpace.body.path, updatedSpace.body.condition]).toEqual([
        200,
        "api",
        "visitor.claims.beta == true"
      ])
      const movedSpace = yield* call("POST", `${spacesPath}/${apiSiteSpace}/move`, { token, body: {} })
      expect(movedSpace.status).toBe(200)

      const siteSpacesStructure = yield* call("GET", `${site}/published`, { token })
      expect(siteSpacesStructure.status).toBe(200)
      expect(siteSpacesStructure.body).toMatchObject({
        object: "published-content-site",
        site: { id: siteId },
        structure: { type: "siteSpaces" },
        customizations: { site: { title: "Docs", styling: { theme: "clean" } }, siteSpaces: {} },
        scripts: []
      })
      expect(siteSpacesStructure.body.structure.structure).toHaveLength(2)

      // Sections and groups.
      const sectionsPath = `${site}/sections`
      const addedSection = yield* call("POST", sectionsPath, { token, body: { spaceId: api, title: "Reference", icon: "book" } })
      expect(addedSection.status).toBe(201)
      const sectionId = addedSection.body.id as string
      expect(addedSection.headers["location"]).toBe(`${PUBLIC_URL}${sectionsPath}/${sectionId}`)
      expect(addedSection.body).toMatchObject({ object: "site-section", title: "Reference", icon: "book", default: false, draft: false })
      const listedSections = yield* call("GET", sectionsPath, { token })
      expect([listedSections.status, listedSections.body.count]).toEqual([200, 2])
      const defaultSection = listedSections.body.items.find((s: { default: boolean }) => s.default).id as string
      expect((yield* call("GET", `${sectionsPath}/${sectionId}`, { token })).body.id).toBe(sectionId)
      const updatedSection = yield* call("PATCH", `${sectionsPath}/${sectionId}`, { token, body: { description: "All endpoints" } })
      expect([updatedSection.status, updatedSection.body.description]).toEqual([200, "All endpoints"])
      const movedSection = yield* call("POST", `${sectionsPath}/${sectionId}/move`, {
        token,
        body: { position: { before: { type: "site-section", id: defaultSection } } }
      })
      expect(movedSection.status).toBe(200)

      const groupsPath = `${site}/section-groups`
      const addedGroup = yield* call("POST", groupsPath, { token, body: { title: "Developers", sections: [sectionId] } })
      expect(addedGroup.status).toBe(201)
      const groupId = addedGroup.body.id as string
      expect(addedGroup.headers["location"]).toBe(`${PUBLIC_URL}${groupsPath}/${groupId}`)
      expect(addedGroup.body.sections.map((s: { id: string }) => s.id)).toEqual([sectionId])
      expect(addedGroup.body.children).toEqual(addedGroup.body.sections)
      expect((yield* call("GET", groupsPath, { token })).body.count).toBe(1)
      expect((yield* call("PATCH", `${groupsPath}/${groupId}`, { token, body: { title: "Devs" } })).body.title).toBe("Devs")
      expect((yield* call("DELETE", `${groupsPath}/${groupId}/sections/${sectionId}`, { token })).status).toBe(204)
      const regrouped = yield* call("POST", `${groupsPath}/${groupId}/sections`, { token, body: { sectionId } })
      expect([regrouped.status, regrouped.body.sections.length]).toEqual([200, 1])
      expect((yield* call("POST", `${groupsPath}/${groupId}/move`, { token, body: {} })).status).toBe(200)

      const sectioned = yield* call("GET", `${site}/published`, { token })
      expect(sectioned.body.structure.type).toBe("sections")
      const structure = yield* call("GET", `${site}/structure`, { token })
      expect([structure.status, structure.body.type]).toEqual([200, "sections"])

      // Share links and shareKey.
      expect((yield* call("PATCH", site, { token, body: { visibility: "share-link" } })).status).toBe(200)
      const linksPath = `${site}/share-links`
      const link = yield* call("POST", linksPath, { token, body: { name: "Partners" } })
      expect(link.status).toBe(201)
      expect(link.headers["location"]).toBe(`${PUBLIC_URL}${linksPath}/${link.body.id}`)
      const key = /\?share=([A-Za-z0-9]{32})$/.exec(link.body.urls.published)?.[1] ?? ""
      expect(link.body.urls.published).toBe(`${PUBLIC_URL}/sites/${organizationId}/docs?share=${key}`)
      const shared = yield* call("GET", `${site}/published?shareKey=${key}`, { token })
      expect(shared.body.site.urls.published).toBe(`${PUBLIC_URL}/sites/${organizationId}/docs?share=${key}`)
      expect((yield* call("GET", `${linksPath}?search=Part`, { token })).body.count).toBe(1)
      const deactivated = yield* call("PATCH", `${linksPath}/${link.body.id}`, { token, body: { active: false } })
      expect([deactivated.status, deactivated.body.active]).toEqual([200, false])
      expect((yield* call("DELETE", `${linksPath}/${link.body.id}`, { token })).status).toBe(204)

      // Adaptive schema and publishing auth.
      const schema = yield* call("GET", `${site}/adaptive-schema`, { token })
      expect(schema.body).toMatchObject({
        object: "site-adaptive-schema",
        jsonSchema: { type: "object", properties: {}, additionalProperties: false }
      })
      const jsonSchema = {
        type: "object",
        properties: { beta: { type: "boolean", description: "In the beta" } },
        additionalProperties: false
      }
      const put = yield* call("PUT", `${site}/adaptive-schema`, { token, body: { jsonSchema } })
      expect([put.status, put.body.jsonSchema]).toEqual([200, jsonSchema])

      const auth = yield* call("GET", `${site}/publishing/auth`, { token })
      expect(auth.body).toEqual({ object: "publishing-auth", backend: "custom", privateKey: expect.any(String) })
      const patchedAuth = yield* call("PATCH", `${site}/publishing/auth`, { token, body: { fallbackURL: "https://login.example.com" } })
      expect(patchedAuth.body.fallbackURL).toBe("https://login.example.com")
      expect((yield* call("PATCH", `${site}/publishing/auth`, { token, body: { backend: "integration" } })).status).toBe(400)
      const regenerated = yield* call("POST", `${site}/publishing/auth/regenerate`, { token })
      expect(regenerated.status).toBe(200)
      expect(regenerated.body.privateKey).not.toBe(auth.body.privateKey)

      // Removals, and the organization in the path.
      expect((yield* call("DELETE", `${sectionsPath}/${sectionId}`, { token })).status).toBe(204)
      expect((yield* call("DELETE", `${groupsPath}/${groupId}`, { token })).status).toBe(204)
      expect((yield* call("POST", `${site}/unpublish`, { token })).body.published).toBe(false)
      const other = (yield* call("POST", "/v1/orgs", { token, body: { title: "Elsewhere" } })).body.id as string
      expect((yield* call("GET", `/v1/orgs/${other}/sites/${siteId}`, { token })).status).toBe(404)
      expect((yield* call("DELETE", `/v1/orgs/${other}/sites/${siteId}`, { token })).status).toBe(404)
      const reader = yield* newUser("Rita Reader")
      yield* addMember(organizationId, admin, reader, "read")
      expect((yield* call("GET", site, { token: reader.token })).status).toBe(200)
      expect((yield* call("DELETE", site, { token: reader.token })).status).toBe(403)
      expect((yield* call("DELETE", site, { token })).status).toBe(204)
      expect((yield* call("GET", site, { token })).status).toBe(404)
    }))
})
