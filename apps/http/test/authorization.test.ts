import { MemoryStorage } from "@octavo/adapters-memory"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testServer } from "./harness.js"
import { world, type World } from "./scenario.js"

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/**
 * Every organization endpoint with the least a caller needs: `member` (guests too),
 * `role` (any member but guests), `admin`. Each is refused without a token (401),
 * to a user of another organization (404), and to a member below the need (403).
 */
const endpoints: ReadonlyArray<{
  readonly method: Method
  readonly path: (w: World) => string
  readonly body?: unknown
  readonly needs: "member" | "role" | "admin"
}> = [
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}`, needs: "member" },
  { method: "PATCH", path: (w) => `/v1/orgs/${w.organizationId}`, body: { title: "Renamed" }, needs: "admin" },
  { method: "POST", path: (w) => `/v1/orgs/${w.organizationId}/ping`, needs: "member" },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/members`, needs: "role" },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/members/${w.alice.id}`, needs: "role" },
  { method: "PATCH", path: (w) => `/v1/orgs/${w.organizationId}/members/${w.bob.id}`, body: { role: "read" }, needs: "admin" },
  { method: "DELETE", path: (w) => `/v1/orgs/${w.organizationId}/members/${w.alice.id}`, needs: "admin" },
  { method: "POST", path: (w) => `/v1/orgs/${w.organizationId}/members/${w.bob.id}/sso`, needs: "admin" },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/members/${w.bob.id}/teams`, needs: "role" },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/teams`, needs: "role" },
  { method: "PUT", path: (w) => `/v1/orgs/${w.organizationId}/teams`, body: { title: "New team" }, needs: "admin" },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/teams/${w.teamId}`, needs: "role" },
  { method: "PATCH", path: (w) => `/v1/orgs/${w.organizationId}/teams/${w.teamId}`, body: { title: "Renamed" }, needs: "admin" },
  { method: "DELETE", path: (w) => `/v1/orgs/${w.organizationId}/teams/${w.teamId}`, needs: "admin" },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/teams/${w.teamId}/members`, needs: "role" },
  { method: "PUT", path: (w) => `/v1/orgs/${w.organizationId}/teams/${w.teamId}/members`, body: { add: [] }, needs: "admin" },
  { method: "PUT", path: (w) => `/v1/orgs/${w.organizationId}/teams/${w.teamId}/members/${w.alice.id}`, body: {}, needs: "admin" },
  { method: "DELETE", path: (w) => `/v1/orgs/${w.organizationId}/teams/${w.teamId}/members/${w.bob.id}`, needs: "admin" },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/link-invites`, needs: "admin" },
  { method: "POST", path: (w) => `/v1/orgs/${w.organizationId}/link-invites`, body: { role: "read" }, needs: "admin" },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/link-invites/${w.inviteId}`, needs: "admin" },
  { method: "PATCH", path: (w) => `/v1/orgs/${w.organizationId}/link-invites/${w.inviteId}`, body: { role: "edit" }, needs: "admin" },
  { method: "DELETE", path: (w) => `/v1/orgs/${w.organizationId}/link-invites/${w.inviteId}`, needs: "admin" },
  { method: "POST", path: (w) => `/v1/orgs/${w.organizationId}/invites`, body: { emails: ["x@example.com"] }, needs: "admin" }
]

/** Endpoints outside organizations: each refuses a request without a valid token. */
const userEndpoints: ReadonlyArray<{ readonly method: Method; readonly path: (w: World) => string; readonly body?: unknown }> = [
  { method: "GET", path: () => "/v1/user" },
  { method: "GET", path: () => "/v1/orgs" },
  { method: "POST", path: () => "/v1/orgs", body: { title: "Nope" } },
  { method: "POST", path: () => "/v1/users", body: { displayName: "X", email: "x@example.com" } },
  { method: "GET", path: (w) => `/v1/users/${w.alice.id}` },
  { method: "POST", path: (w) => `/v1/users/${w.alice.id}/tokens`, body: {} },
  { method: "DELETE", path: (w) => `/v1/users/${w.alice.id}/tokens/abc` },
  { method: "GET", path: () => "/v1/email-domains/example.com/orgs" },
  { method: "POST", path: (w) => `/v1/orgs/${w.organizationId}/invites/${w.inviteId}` }
]

layer(testServer(MemoryStorage), { excludeTestServices: true })("authorization", (it) => {
  describe("organization endpoints", () => {
    it.effect("refuse a missing, malformed or unknown token with 401 and change nothing", () =>
      Effect.gen(function*() {
        const w = yield* world
        for (const e of [...endpoints, ...userEndpoints]) {
          for (const token of [undefined, "", "not-a-token"]) {
            const answer = yield* call(e.method, e.path(w), { token, body: e.body })
            expect([e.method, e.path(w), answer.status]).toEqual([e.method, e.path(w), 401])
            expect(answer.body.error.code).toBe(401)
            expect(answer.body.error.message).toMatch(/bearer token/i)
          }
        }
        const org = yield* call("GET", `/v1/orgs/${w.organizationId}`, { token: w.alice.token })
        expect(org.body.title).toBe("Acme Docs")
      }))

    it.effect("answer 404 to a user of another organization, as if it did not exist", () =>
      Effect.gen(function*() {
        const w = yield* world
        for (const e of endpoints) {
          const answer = yield* call(e.method, e.path(w), { token: w.carol.token, body: e.body })
          expect([e.method, e.path(w), answer.status]).toEqual([e.method, e.path(w), 404])
          expect(answer.body.error.message).not.toContain(w.alice.id)
        }
        // The other organization's admin cannot reach this one's objects through its own organization either.
        const crossTeam = yield* call("GET", `/v1/orgs/${w.otherOrganizationId}/teams/${w.teamId}`, { token: w.carol.token })
        expect(crossTeam.status).toBe(404)
        const crossInvite = yield* call("GET", `/v1/orgs/${w.otherOrganizationId}/link-invites/${w.inviteId}`, { token: w.carol.token })
        expect(crossInvite.status).toBe(404)
        const crossMember = yield* call("GET", `/v1/orgs/${w.otherOrganizationId}/members/${w.bob.id}`, { token: w.carol.token })
        expect(crossMember.status).toBe(404)
        const user = yield* call("GET", `/v1/users/${w.alice.id}`, { token: w.carol.token })
        expect(user.status).toBe(404)
      }))

    it.effect("answer 403 to a member without the role, and change nothing", () =>
      Effect.gen(function*() {
        const w = yield* world
        for (const e of endpoints) {
          const below = e.needs === "admin" ? [w.bob, w.guest] : e.needs === "role" ? [w.guest] : []
          for (const caller of below) {
            const answer = yield* call(e.method, e.path(w), { token: caller.token, body: e.body })
            expect([e.method, e.path(w), caller === w.bob ? "bob" : "guest", answer.status])
              .toEqual([e.method, e.path(w), caller === w.bob ? "bob" : "guest", 403])
            expect(answer.body.error.code).toBe(403)
          }
        }
        const team = yield* call("GET", `/v1/orgs/${w.organizationId}/teams/${w.teamId}`, { token: w.alice.token })
        expect(team.body).toMatchObject({ title: "Writers", members: 1 })
        const invites = yield* call("GET", `/v1/orgs/${w.organizationId}/link-invites`, { token: w.alice.token })
        expect(invites.body.count).toBe(3)
        const bob = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.bob.id}`, { token: w.alice.token })
        expect(bob.body).toMatchObject({ role: "edit", sso: false })
      }))

    it.effect("let the least role do what it needs", () =>
      Effect.gen(function*() {
        const w = yield* world
        const guestReads = yield* call("GET", `/v1/orgs/${w.organizationId}`, { token: w.guest.token })
        expect(guestReads.status).toBe(200)
        expect(guestReads.body.permissions).toMatchObject({
          view: true,
          access: false,
          admin: false,
          createContent: false,
          listMembers: false
        })
        expect((yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.guest.id}`, { token: w.guest.token })).status).toBe(200)
        expect((yield* call("GET", `/v1/orgs/${w.organizationId}/members`, { token: w.bob.token })).status).toBe(200)
        expect((yield* call("GET", `/v1/orgs/${w.organizationId}/teams/${w.teamId}/members`, { token: w.bob.token })).status).toBe(200)
        const adminView = yield* call("GET", `/v1/orgs/${w.organizationId}`, { token: w.alice.token })
        expect(adminView.body.permissions).toMatchObject({ view: true, access: true, admin: true, createContent: true, listMembers: true })
      }))
  })
})
