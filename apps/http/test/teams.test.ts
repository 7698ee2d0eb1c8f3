import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testServer } from "./harness.js"
import { addMember, chars, newUser, world } from "./scenario.js"

const titles = (body: { items: ReadonlyArray<{ title: string }> }) => body.items.map((t) => t.title)

layer(testServer(MemoryStorage), { excludeTestServices: true })("teams", (it) => {
  it.effect("create with PUT: 201, Location, title 1 to 64, members must belong to the organization", () =>
    Effect.gen(function*() {
      const w = yield* world
      const base = `/v1/orgs/${w.organizationId}/teams`
      const created = yield* call("PUT", base, { token: w.alice.token, body: { title: chars(64), members: [w.alice.id, w.bob.id] } })
      expect(created.status).toBe(201)
      expect(created.body).toEqual({
        object: "team",
        id: created.body.id,
        title: chars(64),
        members: 2,
        spaces: 0,
        createdAt: created.body.createdAt,
        permissions: { admin: true, view: true }
      })
      expect(created.headers["location"]).toBe(`https://docs.test/v1/orgs/${w.organizationId}/teams/${created.body.id}`)
      expect((yield* call("PUT", base, { token: w.alice.token, body: { title: "x" } })).status).toBe(201)
      const tooLong = yield* call("PUT", base, { token: w.alice.token, body: { title: chars(65) } })
      expect(tooLong.body.error).toEqual({ code: 400, message: "title: must be at most 64 characters, got 65" })
      expect((yield* call("PUT", base, { token: w.alice.token, body: { title: "" } })).status).toBe(400)
      const stranger = yield* call("PUT", base, { token: w.alice.token, body: { title: "Mixed", members: [w.bob.id, w.carol.id] } })
      expect(stranger.status).toBe(400)
      expect(stranger.body.error.message).toBe(`members: ${w.carol.id} is not a member of this organization`)
      const listed = yield* call("GET", base, { token: w.bob.token })
      expect(titles(listed.body)).toEqual(["Writers", chars(64), "x"])
    }))

  it.effect("get, rename (1 to 64), delete", () =>
    Effect.gen(function*() {
      const w = yield* world
      const path = `/v1/orgs/${w.organizationId}/teams/${w.teamId}`
      const got = yield* call("GET", path, { token: w.bob.token })
      expect(got.body).toMatchObject({ object: "team", id: w.teamId, title: "Writers", members: 1 })
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { title: chars(64) } })).body.title).toBe(chars(64))
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { title: chars(65) } })).status).toBe(400)
      expect((yield* call("PATCH", path, { token: w.alice.token, body: {} })).status).toBe(400)
      expect((yield* call("GET", path, { token: w.bob.token })).body.title).toBe(chars(64))
      expect((yield* call("DELETE", path, { token: w.alice.token })).status).toBe(204)
      expect((yield* call("GET", path, { token: w.alice.token })).status).toBe(404)
      const bobTeams = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.bob.id}`, { token: w.bob.token })
      expect(bobTeams.body.teams).toBe(0)
    }))

  it.effect("list filters: title contains (any case), owner keeps the teams that member can manage", () =>
    Effect.gen(function*() {
      const w = yield* world
      const base = `/v1/orgs/${w.organizationId}/teams`
      const devs = yield* call("PUT", base, { token: w.alice.token, body: { title: "Developers" } })
      yield* call("PUT", `${base}/${devs.body.id}/members/${w.bob.id}`, { token: w.alice.token, body: { role: "owner" } })
      expect(titles((yield* call("GET", `${base}?title=WRIT`, { token: w.bob.token })).body)).toEqual(["Writers"])
      expect(titles((yield* call("GET", `${base}?owner=${w.bob.id}`, { token: w.bob.token })).body)).toEqual(["Developers"])
      expect(titles((yield* call("GET", `${base}?owner=${w.alice.id}`, { token: w.bob.token })).body)).toEqual(["Writers", "Developers"])
      expect((yield* call("GET", `${base}?owner=${w.carol.id}`, { token: w.bob.token })).status).toBe(400)
      expect((yield* call("GET", `${base}?title=${chars(65)}`, { token: w.bob.token })).status).toBe(400)
    }))

  it.effect("members: listed with their member record; a team owner manages them", () =>
    Effect.gen(function*() {
      const w = yield* world
      const base = `/v1/orgs/${w.organizationId}/teams/${w.teamId}/members`
      const listed = yield* call("GET", base, { token: w.bob.token })
      expect(listed.body.count).toBe(1)
      expect(listed.body.items[0]).toMatchObject({
        organization: { object: "member", id: w.bob.id, role: "edit" },
        team: { role: "member" },
        permissions: { view: true }
      })
      const team = `/v1/orgs/${w.organizationId}/teams/${w.teamId}`
      const bobsTeams = `/v1/orgs/${w.organizationId}/members/${w.bob.id}/teams`
      // A team's permissions are the caller's: an admin manages it, a plain member only reads it.
      expect((yield* call("GET", team, { token: w.bob.token })).body.permissions).toEqual({ admin: false, view: true })
      expect((yield* call("GET", team, { token: w.alice.token })).body.permissions).toEqual({ admin: true, view: true })
      expect((yield* call("GET", bobsTeams, { token: w.bob.token })).body.items[0].team.permissions).toEqual({ admin: false, view: true })
      expect((yield* call("PUT", `${base}/${w.bob.id}`, { token: w.alice.token, body: { role: "owner" } })).status).toBe(204)
      const dana = yield* newUser("Dana")
      yield* addMember(w.organizationId, w.alice, dana, "read")
      // Its owner manages it; another reader of Bob's teams still only reads it.
      expect((yield* call("GET", team, { token: w.bob.token })).body.permissions).toEqual({ admin: true, view: true })
      expect((yield* call("GET", `/v1/orgs/${w.organizationId}/teams`, { token: w.bob.token })).body.items[0].permissions).toEqual({
        admin: true,
        view: true
      })
      expect((yield* call("GET", bobsTeams, { token: w.bob.token })).body.items[0].team.permissions).toEqual({ admin: true, view: true })
      expect((yield* call("GET", bobsTeams, { token: dana.token })).body.items[0].team.permissions).toEqual({ admin: false, view: true })
      // Bob owns the team now: he manages its members without being an admin.
      // GitBook's body is optional here.
      expect((yield* call("PUT", `${base}/${dana.id}`, { token: w.bob.token })).status).toBe(204)
      expect((yield* call("PUT", `${base}/${dana.id}`, { token: w.bob.token, body: {} })).status).toBe(204)
      expect(
        (yield* call("PATCH", `/v1/orgs/${w.organizationId}/teams/${w.teamId}`, { token: w.bob.token, body: { title: "Bob's" } })).status
      ).toBe(200)
      const roles = yield* call("GET", base, { token: w.bob.token })
      expect(roles.body.items.map((r: { organization: { id: string }; team: { role: string } }) => [r.organization.id, r.team.role]))
        .toEqual([[w.bob.id, "owner"], [dana.id, "member"]])
      expect((yield* call("PUT", `${base}/${w.carol.id}`, { token: w.bob.token, body: {} })).status).toBe(404)
      expect((yield* call("PUT", `${base}/${dana.id}`, { token: w.bob.token, body: { role: "boss" } })).status).toBe(400)
      expect((yield* call("DELETE", `${base}/${dana.id}`, { token: w.bob.token })).status).toBe(204)
      expect((yield* call("DELETE", `${base}/${dana.id}`, { token: w.bob.token })).status).toBe(404)
      expect((yield* call("DELETE", `/v1/orgs/${w.organizationId}/teams/${w.teamId}`, { token: w.bob.token })).status).toBe(403)
    }))

  it.effect("bulk update: ids or emails; a user in add and remove is removed; one bad reference writes nothing", () =>
    Effect.gen(function*() {
      const w = yield* world
      const base = `/v1/orgs/${w.organizationId}/teams/${w.teamId}/members`
      const erin = yield* newUser("Erin")
      yield* addMember(w.organizationId, w.alice, erin, "read")
      const update = yield* call("PUT", base, {
        token: w.alice.token,
        body: {
          add: [erin.email, w.alice.id, w.guest.id],
          remove: [w.guest.id, w.bob.email],
          memberships: { [w.alice.id]: { role: "owner" } }
        }
      })
      expect(update.status).toBe(204)
      const after = yield* call("GET", base, { token: w.alice.token })
      expect(after.body.items.map((r: { organization: { id: string }; team: { role: string } }) => [r.organization.id, r.team.role]).sort())
        .toEqual([[erin.id, "member"], [w.alice.id, "owner"]].sort())
      const bad = yield* call("PUT", base, { token: w.alice.token, body: { add: [w.bob.id, "nobody@example.com"] } })
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toBe("add: nobody@example.com is not a member of this organization")
      expect((yield* call("GET", base, { token: w.alice.token })).body.count).toBe(2)
      const badRole = yield* call("PUT", base, { token: w.alice.token, body: { memberships: { [erin.id]: { role: "admin" } } } })
      expect(badRole.status).toBe(400)
    }))
})
