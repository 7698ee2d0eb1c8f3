import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, PUBLIC_URL, testServer } from "./harness.js"
import { addMember, chars, newUser, world } from "./scenario.js"

layer(testServer(MemoryStorage), { excludeTestServices: true })("organizations", (it) => {
  it.effect("create: 201 with Location, the creator is admin, every field present", () =>
    Effect.gen(function*() {
      const user = yield* newUser("Founder")
      const answer = yield* call("POST", "/v1/orgs", { token: user.token, body: { title: "Acme", emailDomains: ["Acme.com"] } })
      expect(answer.status).toBe(201)
      const id = answer.body.id
      expect(answer.body).toEqual({
        object: "organization",
        id,
        title: "Acme",
        createdAt: answer.body.createdAt,
        emailDomains: ["acme.com"],
        type: "business",
        defaultRole: "read",
        sso: false,
        ai: false,
        inviteLinks: true,
        plan: "free_2024",
        mergeRules: { type: "none" },
        urls: { location: `${PUBLIC_URL}/v1/orgs/${id}`, app: `${PUBLIC_URL}/o/${id}` },
        trial: { status: "notapplicable", count: 0 },
        permissions: {
          view: true,
          access: true,
          admin: true,
          ownTeam: false,
          createContent: true,
          createOpenAPISpec: true,
          viewBilling: false,
          listMembers: true,
          listTeams: true,
          listIntegrations: true,
          listInstallations: true,
          installIntegration: true
        }
      })
      expect(answer.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      expect(answer.headers["location"]).toBe(`${PUBLIC_URL}/v1/orgs/${id}`)
      const member = yield* call("GET", `/v1/orgs/${id}/members/${user.id}`, { token: user.token })
      expect(member.body.role).toBe("admin")
    }))

  it.effect("title is 2 to 255 characters, on create and update", () =>
    Effect.gen(function*() {
      const user = yield* newUser("Limits")
      for (const [title, status] of [[chars(2), 201], [chars(255), 201], [chars(1), 400], [chars(256), 400]] as const) {
        const answer = yield* call("POST", "/v1/orgs", { token: user.token, body: { title } })
        expect(answer.status).toBe(status)
      }
      const bad = yield* call("POST", "/v1/orgs", { token: user.token, body: { title: chars(256) } })
      expect(bad.body.error).toEqual({ code: 400, message: "title: must be at most 255 characters, got 256" })
      const org = yield* call("POST", "/v1/orgs", { token: user.token, body: { title: "Original" } })
      for (const [title, status] of [[chars(2), 200], [chars(255), 200], [chars(1), 400], [chars(256), 400]] as const) {
        const answer = yield* call("PATCH", `/v1/orgs/${org.body.id}`, { token: user.token, body: { title } })
        expect(answer.status).toBe(status)
      }
      const after = yield* call("GET", `/v1/orgs/${org.body.id}`, { token: user.token })
      expect(after.body.title).toBe(chars(255))
      const missing = yield* call("POST", "/v1/orgs", { token: user.token, body: {} })
      expect(missing.body.error.message).toBe("title: is missing")
      const badDomain = yield* call("POST", "/v1/orgs", { token: user.token, body: { title: "Ok", emailDomains: ["not a domain"] } })
      expect(badDomain.status).toBe(400)
      expect(badDomain.body.error.message).toContain("emailDomains.0")
    }))

  it.effect("update: hostname 3 to 32 and unique, settings, nulls remove optional fields", () =>
    Effect.gen(function*() {
      const user = yield* newUser("Settings")
      const org = yield* call("POST", "/v1/orgs", { token: user.token, body: { title: "Settings" } })
      const path = `/v1/orgs/${org.body.id}`
      for (
        const [hostname, status] of [["abc", 200], [chars(32, "b"), 200], ["ab", 400], [chars(33, "c"), 400], ["Bad_Host", 400]] as const
      ) {
        const answer = yield* call("PATCH", path, { token: user.token, body: { hostname } })
        expect([hostname, answer.status]).toEqual([hostname, status])
      }
      const other = yield* call("POST", "/v1/orgs", { token: user.token, body: { title: "Other" } })
      const clash = yield* call("PATCH", `/v1/orgs/${other.body.id}`, { token: user.token, body: { hostname: chars(32, "b") } })
      expect(clash.status).toBe(409)
      const patched = yield* call("PATCH", path, {
        token: user.token,
        body: {
          emailDomains: ["docs.example.com"],
          defaultRole: null,
          defaultContent: { type: "site", site: "site1" },
          logo: "https://example.com/logo.png",
          ai: true,
          inviteLinks: false
        }
      })
      expect(patched.status).toBe(200)
      expect(patched.body).toMatchObject({
        hostname: chars(32, "b"),
        emailDomains: ["docs.example.com"],
        defaultRole: null,
        defaultContent: { type: "site", site: "site1" },
        sso: false,
        ai: true,
        inviteLinks: false,
        urls: { logo: "https://example.com/logo.png" }
      })
      const cleared = yield* call("PATCH", path, { token: user.token, body: { hostname: null, logo: null } })
      expect(cleared.body.hostname).toBeUndefined()
      expect(cleared.body.urls.logo).toBeUndefined()
      expect(cleared.body.ai).toBe(true)
      // Enforcing SSO needs an active SAML provider (sso.test.ts).
      expect((yield* call("PATCH", path, { token: user.token, body: { sso: true } })).status).toBe(412)
      const badRole = yield* call("PATCH", path, { token: user.token, body: { defaultRole: "owner" } })
      expect(badRole.status).toBe(400)
    }))

  it.effect("list: the caller's organizations, paged by keyset with a stable cursor", () =>
    Effect.gen(function*() {
      const user = yield* newUser("Lister")
      const ids: Array<string> = []
      for (let i = 0; i < 5; i++) {
        ids.push((yield* call("POST", "/v1/orgs", { token: user.token, body: { title: `Org ${i}` } })).body.id)
      }
      const seen: Array<string> = []
      let page: string | undefined
      for (let i = 0; i < 5; i++) {
        const answer = yield* call("GET", `/v1/orgs?limit=2${page ? `&page=${page}` : ""}`, { token: user.token })
        expect(answer.status).toBe(200)
        expect(answer.body.count).toBe(5 + i)
        expect(answer.body.items.length).toBeLessThanOrEqual(2)
        seen.push(...answer.body.items.map((o: { id: string }) => o.id))
        // Organizations created while paging do not disturb the walk.
        yield* call("POST", "/v1/orgs", { token: user.token, body: { title: `Late ${i}` } })
        page = answer.body.next?.page
        if (page === undefined) break
      }
      expect(new Set(seen).size).toBe(seen.length)
      for (const id of ids) expect(seen).toContain(id)
      for (const limit of ["0", "1001", "1.5", "x"]) {
        const answer = yield* call("GET", `/v1/orgs?limit=${limit}`, { token: user.token })
        expect(answer.status).toBe(400)
        expect(answer.body.error.message).toContain("limit")
      }
      expect((yield* call("GET", "/v1/orgs?limit=1000", { token: user.token })).status).toBe(200)
      expect((yield* call("GET", "/v1/orgs?limit=1", { token: user.token })).status).toBe(200)
      const forged = yield* call("GET", "/v1/orgs?page=forged-token", { token: user.token })
      expect(forged.body.error).toEqual({ code: 400, message: "page: is not a page token of this list" })
      const other = yield* call("GET", `/v1/orgs/${ids[0]}/members?limit=1`, { token: user.token })
      expect(other.status).toBe(200)
      const stranger = yield* newUser("Stranger")
      const mine = yield* call("GET", "/v1/orgs", { token: stranger.token })
      expect(mine.body).toEqual({ items: [], count: 0 })
    }))

  it.effect("email domains: organizations the caller belongs to or could join", () =>
    Effect.gen(function*() {
      const founder = yield* newUser("Domain Founder")
      const org = yield* call("POST", "/v1/orgs", { token: founder.token, body: { title: "Domains", emailDomains: ["example.com"] } })
      const colleague = yield* newUser("Colleague")
      const found = yield* call("GET", "/v1/email-domains/EXAMPLE.com/orgs", { token: colleague.token })
      expect(found.status).toBe(200)
      expect(found.body.organizations.map((o: { id: string }) => o.id)).toContain(org.body.id)
      const joinable = found.body.organizations.find((o: { id: string }) => o.id === org.body.id)
      expect(Object.values(joinable.permissions)).toHaveLength(12)
      expect(Object.values(joinable.permissions).every((granted) => granted === false)).toBe(true)
      const none = yield* call("GET", "/v1/email-domains/elsewhere.org/orgs", { token: colleague.token })
      expect(none.body).toEqual({ organizations: [] })
      const bad = yield* call("GET", "/v1/email-domains/not_a_domain/orgs", { token: colleague.token })
      expect(bad.status).toBe(400)
    }))

  it.effect("permissions follow the caller's role, and team ownership", () =>
    Effect.gen(function*() {
      const w = yield* world
      const reader = yield* newUser("Reader")
      const creator = yield* newUser("Creator")
      yield* addMember(w.organizationId, w.alice, reader, "read")
      yield* addMember(w.organizationId, w.alice, creator, "create")
      const path = `/v1/orgs/${w.organizationId}`
      const permissionsOf = (token: string) => Effect.map(call("GET", path, { token }), (answer) => answer.body.permissions)
      const granted = (permissions: Record<string, boolean>) =>
        Object.entries(permissions).filter(([, value]) => value).map(([name]) => name).sort()
      const member = ["access", "listIntegrations", "listMembers", "listTeams", "view"]
      const admin = ["admin", "createContent", "createOpenAPISpec", "installIntegration", "listInstallations", ...member].sort()
      expect(granted(yield* permissionsOf(w.alice.token))).toEqual(admin)
      expect(granted(yield* permissionsOf(creator.token))).toEqual(["createContent", "createOpenAPISpec", ...member].sort())
      expect(granted(yield* permissionsOf(reader.token))).toEqual(member)
      // A guest sees the organization, nothing more.
      expect(granted(yield* permissionsOf(w.guest.token))).toEqual(["view"])
      // Owning a team is `ownTeam`; being in one is not.
      expect(granted(yield* permissionsOf(w.bob.token))).toEqual(member)
      yield* call("PUT", `${path}/teams/${w.teamId}/members/${w.bob.id}`, { token: w.alice.token, body: { role: "owner" } })
      expect(granted(yield* permissionsOf(w.bob.token))).toEqual(["ownTeam", ...member].sort())
      // The same in lists and after an update.
      const listed = yield* call("GET", "/v1/orgs", { token: w.bob.token })
      expect(listed.body.items[0].permissions.ownTeam).toBe(true)
      const updated = yield* call("PATCH", path, { token: w.alice.token, body: { title: "Acme Docs 2" } })
      expect(granted(updated.body.permissions)).toEqual(admin)
    }))

  it.effect("accepts GitBook's merge rules of none, and refuses rules it cannot apply", () =>
    Effect.gen(function*() {
      const w = yield* world
      const path = `/v1/orgs/${w.organizationId}`
      const none = yield* call("PATCH", path, { token: w.alice.token, body: { mergeRules: { type: "none" } } })
      expect(none.status).toBe(200)
      expect(none.body.mergeRules).toEqual({ type: "none" })
      const rules = yield* call("PATCH", path, { token: w.alice.token, body: { mergeRules: { type: "rules", rules: [] } } })
      expect(rules.status).toBe(400)
      expect(rules.body.error.message).toContain("mergeRules.type")
    }))

  it.effect("ping records the caller's last-seen time", () =>
    Effect.gen(function*() {
      const w = yield* world
      const before = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.bob.id}`, { token: w.alice.token })
      expect(before.body.lastSeenAt).toBeUndefined()
      const ping = yield* call("POST", `/v1/orgs/${w.organizationId}/ping`, { token: w.bob.token })
      expect(ping.status).toBe(200)
      expect(JSON.parse(ping.body.serviceVisitorClaims)).toMatchObject({ organization: w.organizationId, user: w.bob.id })
      const after = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.bob.id}`, { token: w.alice.token })
      expect(typeof after.body.lastSeenAt).toBe("string")
      yield* addMember(w.organizationId, w.alice, yield* newUser("Late"), "read")
    }))
})
