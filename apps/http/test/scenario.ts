import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { ADMIN_TOKEN, call } from "./harness.js"

let sequence = 0

/** Creates a user through the instance administrator and gives it a token. */
export const newUser = (name: string) =>
  Effect.gen(function*() {
    const n = sequence++
    const created = yield* call("POST", "/v1/users", {
      token: ADMIN_TOKEN,
      body: { displayName: name, email: `${name.toLowerCase().replace(/\W/g, "")}.${n}@example.com` }
    })
    expect(created.status).toBe(201)
    const token = yield* call("POST", `/v1/users/${created.body.id}/tokens`, { token: ADMIN_TOKEN, body: { label: "test" } })
    expect(token.status).toBe(201)
    return { id: created.body.id as string, email: created.body.email as string, token: token.body.token as string }
  })

export type TestUser = Effect.Effect.Success<ReturnType<typeof newUser>>

/** Makes `user` a member of the organization with `role` (null: a guest), through a link invite. */
export const addMember = (organizationId: string, admin: TestUser, user: TestUser, role: string | null) =>
  Effect.gen(function*() {
    const invite = yield* call("POST", `/v1/orgs/${organizationId}/link-invites`, {
      token: admin.token,
      body: { role: role ?? "read" }
    })
    expect(invite.status).toBe(201)
    expect((yield* call("POST", `/v1/orgs/${organizationId}/invites/${invite.body.id}`, { token: user.token })).status).toBe(200)
    if (role === null) {
      const patched = yield* call("PATCH", `/v1/orgs/${organizationId}/members/${user.id}`, { token: admin.token, body: { role: null } })
      expect(patched.status).toBe(200)
    }
  })

/**
 * An organization with an admin (alice), an editor (bob), a guest, a team and an invite;
 * and carol, admin of another organization.
 */
export const world = Effect.gen(function*() {
  const alice = yield* newUser("Alice Admin")
  const bob = yield* newUser("Bob Editor")
  const guest = yield* newUser("Gus Guest")
  const carol = yield* newUser("Carol Outsider")
  const org = yield* call("POST", "/v1/orgs", { token: alice.token, body: { title: "Acme Docs" } })
  expect(org.status).toBe(201)
  const organizationId = org.body.id as string
  yield* addMember(organizationId, alice, bob, "edit")
  yield* addMember(organizationId, alice, guest, null)
  const other = yield* call("POST", "/v1/orgs", { token: carol.token, body: { title: "Other Org" } })
  const team = yield* call("PUT", `/v1/orgs/${organizationId}/teams`, { token: alice.token, body: { title: "Writers", members: [bob.id] } })
  expect(team.status).toBe(201)
  const invite = yield* call("POST", `/v1/orgs/${organizationId}/link-invites`, { token: alice.token, body: { role: "comment" } })
  return {
    alice,
    bob,
    guest,
    carol,
    organizationId,
    otherOrganizationId: other.body.id as string,
    teamId: team.body.id as string,
    inviteId: invite.body.id as string
  }
})

export type World = Effect.Effect.Success<typeof world>

/** A string of `n` characters. */
export const chars = (n: number, c = "a") => c.repeat(n)

/** A page view, as a site's browser script sends it to `…/insights/events`. */
export const trackedPageView = {
  type: "page_view",
  session: { visitorId: "v1", sessionId: "s1", cookies: {}, userAgent: "Mozilla/5.0", language: "en", referrer: null },
  location: {
    url: "https://docs.acme.test/",
    siteSection: null,
    siteSpace: null,
    siteShareKey: null,
    space: null,
    revision: null,
    page: null
  }
}
