import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, PUBLIC_URL, testServer } from "./harness.js"
import { newUser, world } from "./scenario.js"

layer(testServer(MemoryStorage), { excludeTestServices: true })("invites", (it) => {
  it.effect("link invites: create (201, Location), list, get, change role, delete", () =>
    Effect.gen(function*() {
      const w = yield* world
      const base = `/v1/orgs/${w.organizationId}/link-invites`
      const created = yield* call("POST", base, { token: w.alice.token, body: { role: "review" } })
      expect(created.status).toBe(201)
      // Alice, an admin, already has everything the invite gives.
      expect(created.body).toEqual({ object: "invite", id: created.body.id, role: "review", redundant: true })
      expect(created.headers["location"]).toBe(`${PUBLIC_URL}${base}/${created.body.id}`)
      expect((yield* call("POST", base, { token: w.alice.token, body: { role: "owner" } })).status).toBe(400)
      expect((yield* call("POST", base, { token: w.alice.token, body: {} })).status).toBe(400)
      const listed = yield* call("GET", `${base}?limit=1`, { token: w.alice.token })
      expect(listed.body.count).toBe(4)
      expect(listed.body.next.page).toEqual(expect.any(String))
      const path = `${base}/${created.body.id}`
      expect((yield* call("GET", path, { token: w.alice.token })).body.role).toBe("review")
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { role: "edit" } })).body.role).toBe("edit")
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { role: "nope" } })).status).toBe(400)
      // GitBook's `level` (of a content invite) sets the role of an organization invite.
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { level: "comment" } })).body.role).toBe("comment")
      expect((yield* call("GET", path, { token: w.alice.token })).body).toMatchObject({ role: "comment", redundant: true })
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { level: "nope" } })).status).toBe(400)
      expect((yield* call("PATCH", path, { token: w.alice.token, body: {} })).status).toBe(400)
      expect((yield* call("DELETE", path, { token: w.alice.token })).status).toBe(204)
      expect((yield* call("GET", path, { token: w.alice.token })).status).toBe(404)
      expect((yield* call("GET", `/v1/orgs/${w.otherOrganizationId}/link-invites/${w.inviteId}`, { token: w.carol.token })).status).toBe(
        404
      )
    }))

  it.effect("a link invite for guests (role null): created, changed with role or level, joined as a guest", () =>
    Effect.gen(function*() {
      const w = yield* world
      const base = `/v1/orgs/${w.organizationId}/link-invites`
      const created = yield* call("POST", base, { token: w.alice.token, body: { role: null } })
      expect(created.status).toBe(201)
      expect(created.body).toEqual({ object: "invite", id: created.body.id, role: null, redundant: true })
      const path = `${base}/${created.body.id}`
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { level: "read" } })).body.role).toBe("read")
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { role: null } })).body.role).toBeNull()
      const visitor = yield* newUser("Visitor")
      expect((yield* call("POST", `/v1/orgs/${w.organizationId}/invites/${created.body.id}`, { token: visitor.token })).status).toBe(200)
      const member = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${visitor.id}`, { token: w.alice.token })
      expect(member.body.role).toBeNull()
    }))

  it.effect("joining with a link gives its role; twice is a conflict; disabled links refuse with 412", () =>
    Effect.gen(function*() {
      const w = yield* world
      const newcomer = yield* newUser("Newcomer")
      const join = `/v1/orgs/${w.organizationId}/invites/${w.inviteId}`
      const joined = yield* call("POST", join, { token: newcomer.token })
      // GitBook's answer: an empty object, which its client parses.
      expect(joined.status).toBe(200)
      expect(joined.body).toEqual({})
      const member = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${newcomer.id}`, { token: w.alice.token })
      expect(member.body.role).toBe("comment")
      const twice = yield* call("POST", join, { token: newcomer.token })
      expect(twice.status).toBe(409)
      expect(twice.body.error.message).toBe("You are a member of this organization already")
      expect((yield* call("POST", `/v1/orgs/${w.otherOrganizationId}/invites/${w.inviteId}`, { token: newcomer.token })).status).toBe(404)
      yield* call("PATCH", `/v1/orgs/${w.organizationId}`, { token: w.alice.token, body: { inviteLinks: false } })
      const late = yield* newUser("Late")
      const refused = yield* call("POST", join, { token: late.token })
      expect(refused.status).toBe(412)
      expect((yield* call("GET", `/v1/orgs/${w.organizationId}`, { token: late.token })).status).toBe(404)
    }))

  it.effect("inviting by email takes GitBook's guest role (null) and SSO flag", () =>
    Effect.gen(function*() {
      const w = yield* world
      const hal = yield* newUser("Hal")
      const ida = yield* newUser("Ida")
      const jo = yield* newUser("Jo")
      const invites = `/v1/orgs/${w.organizationId}/invites`
      const guests = yield* call("POST", invites, {
        token: w.alice.token,
        body: { emails: [hal.email, { email: ida.email, role: "review" }, "new@example.com", "other@example.com"], role: null, sso: true }
      })
      expect(guests.status).toBe(200)
      expect(guests.body).toEqual({ users: [hal.id, ida.id], invited: 2, failedSSOEmails: [] })
      const members = `/v1/orgs/${w.organizationId}/members`
      expect((yield* call("GET", `${members}/${hal.id}`, { token: w.alice.token })).body).toMatchObject({ role: null, sso: true })
      expect((yield* call("GET", `${members}/${ida.id}`, { token: w.alice.token })).body).toMatchObject({ role: "review", sso: true })
      const entry = yield* call("POST", invites, { token: w.alice.token, body: { emails: [{ email: jo.email, role: null }] } })
      expect(entry.body).toEqual({ users: [jo.id], invited: 0, failedSSOEmails: [] })
      expect((yield* call("GET", `${members}/${jo.id}`, { token: w.alice.token })).body).toMatchObject({ role: null, sso: false })
    }))

  it.effect("inviting by email adds existing users and reports addresses without an account", () =>
    Effect.gen(function*() {
      const w = yield* world
      const fay = yield* newUser("Fay")
      const gil = yield* newUser("Gil")
      const answer = yield* call("POST", `/v1/orgs/${w.organizationId}/invites`, {
        token: w.alice.token,
        body: { emails: [fay.email.toUpperCase(), { email: gil.email, role: "admin" }, "nobody@example.com", w.bob.email], role: "edit" }
      })
      expect(answer.status).toBe(200)
      // `invited` counts the addresses without an account.
      expect(answer.body).toEqual({ users: [fay.id, gil.id], invited: 1, failedSSOEmails: [] })
      const members = `/v1/orgs/${w.organizationId}/members`
      expect((yield* call("GET", `${members}/${fay.id}`, { token: w.alice.token })).body.role).toBe("edit")
      expect((yield* call("GET", `${members}/${gil.id}`, { token: w.alice.token })).body.role).toBe("admin")
      expect((yield* call("GET", `${members}/${w.bob.id}`, { token: w.alice.token })).body.role).toBe("edit")
      const bad = yield* call("POST", `/v1/orgs/${w.organizationId}/invites`, {
        token: w.alice.token,
        body: { emails: ["ok@example.com", "not-an-email"] }
      })
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toBe("emails.1: must be an email address")
      expect((yield* call("POST", `/v1/orgs/${w.organizationId}/invites`, { token: w.alice.token, body: { emails: [] } })).status).toBe(400)
      const hundred = Array.from({ length: 100 }, (_, i) => `p${i}@nowhere.example`)
      expect((yield* call("POST", `/v1/orgs/${w.organizationId}/invites`, { token: w.alice.token, body: { emails: hundred } })).status)
        .toBe(200)
      const tooMany = [...hundred, "p100@nowhere.example"]
      expect((yield* call("POST", `/v1/orgs/${w.organizationId}/invites`, { token: w.alice.token, body: { emails: tooMany } })).status)
        .toBe(400)
    }))
})
