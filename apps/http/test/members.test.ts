import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testServer } from "./harness.js"
import { addMember, newUser, world } from "./scenario.js"

const ids = (body: { items: ReadonlyArray<{ id: string }> }) => body.items.map((m) => m.id)

layer(testServer(MemoryStorage), { excludeTestServices: true })("members", (it) => {
  it.effect("list: every field, newest first by default, filters by role and search", () =>
    Effect.gen(function*() {
      const w = yield* world
      const path = `/v1/orgs/${w.organizationId}/members`
      const all = yield* call("GET", path, { token: w.bob.token })
      expect(all.status).toBe(200)
      expect(all.body.count).toBe(3)
      expect(ids(all.body)).toEqual([w.guest.id, w.bob.id, w.alice.id])
      const bob = all.body.items[1]
      expect(bob).toEqual({
        object: "member",
        id: w.bob.id,
        role: "edit",
        user: expect.objectContaining({ object: "user", id: w.bob.id, displayName: "Bob Editor", email: w.bob.email }),
        disabled: false,
        joinedAt: bob.joinedAt,
        sso: false,
        spaces: 0,
        teams: 1,
        sites: 0
      })
      expect(ids((yield* call("GET", `${path}?order=asc`, { token: w.bob.token })).body)).toEqual([w.alice.id, w.bob.id, w.guest.id])
      expect(ids((yield* call("GET", `${path}?role=edit`, { token: w.bob.token })).body)).toEqual([w.bob.id])
      // GitBook's `guest` lists the members without a role.
      const guests = yield* call("GET", `${path}?role=guest`, { token: w.bob.token })
      expect(ids(guests.body)).toEqual([w.guest.id])
      expect(guests.body.count).toBe(1)
      expect(ids((yield* call("GET", `${path}?search=ALICE`, { token: w.bob.token })).body)).toEqual([w.alice.id])
      const byEmail = yield* call("GET", `${path}?search=${encodeURIComponent(w.guest.email)}`, { token: w.bob.token })
      expect(ids(byEmail.body)).toEqual([w.guest.id])
      expect((yield* call("GET", `${path}?role=owner`, { token: w.bob.token })).status).toBe(400)
      // GitBook's sort by name: Alice Admin, Bob Editor, Gus Guest.
      expect(ids((yield* call("GET", `${path}?sort=name&order=asc`, { token: w.bob.token })).body)).toEqual([
        w.alice.id,
        w.bob.id,
        w.guest.id
      ])
      const byName = yield* call("GET", `${path}?sort=name&limit=2`, { token: w.bob.token })
      expect(ids(byName.body)).toEqual([w.guest.id, w.bob.id])
      const rest = yield* call("GET", `${path}?sort=name&limit=2&page=${byName.body.next.page}`, { token: w.bob.token })
      expect(ids(rest.body)).toEqual([w.alice.id])
      expect((yield* call("GET", `${path}?sort=title`, { token: w.bob.token })).status).toBe(400)
      expect((yield* call("GET", `${path}?order=up`, { token: w.bob.token })).status).toBe(400)
      expect((yield* call("GET", `${path}?search=${"a".repeat(512)}`, { token: w.bob.token })).status).toBe(200)
      expect((yield* call("GET", `${path}?search=${"a".repeat(513)}`, { token: w.bob.token })).status).toBe(400)
    }))

  it.effect("list: sorting by last-seen time lists only active members; pages walk every member once", () =>
    Effect.gen(function*() {
      const w = yield* world
      const path = `/v1/orgs/${w.organizationId}/members`
      yield* call("POST", `/v1/orgs/${w.organizationId}/ping`, { token: w.guest.token })
      yield* Effect.sleep("5 millis")
      yield* call("POST", `/v1/orgs/${w.organizationId}/ping`, { token: w.alice.token })
      const seen = yield* call("GET", `${path}?sort=lastSeenAt`, { token: w.alice.token })
      expect(ids(seen.body)).toEqual([w.alice.id, w.guest.id])
      expect(seen.body.count).toBe(2)
      const seenAsc = yield* call("GET", `${path}?sort=lastSeenAt&order=asc`, { token: w.alice.token })
      expect(ids(seenAsc.body)).toEqual([w.guest.id, w.alice.id])
      for (let i = 0; i < 4; i++) yield* addMember(w.organizationId, w.alice, yield* newUser(`Extra ${i}`), "read")
      const walked: Array<string> = []
      let page: string | undefined
      do {
        const answer = yield* call("GET", `${path}?limit=2${page ? `&page=${page}` : ""}`, { token: w.alice.token })
        expect(answer.body.count).toBe(7)
        walked.push(...ids(answer.body))
        page = answer.body.next?.page
      } while (page !== undefined)
      expect(walked.length).toBe(7)
      expect(new Set(walked).size).toBe(7)
      const first = yield* call("GET", `${path}?limit=2`, { token: w.alice.token })
      const reused = yield* call("GET", `${path}?limit=2&sort=lastSeenAt&page=${first.body.next.page}`, { token: w.alice.token })
      expect(reused.status).toBe(400)
    }))

  it.effect("roles change; the last admin can be neither demoted nor removed", () =>
    Effect.gen(function*() {
      const w = yield* world
      const base = `/v1/orgs/${w.organizationId}/members`
      const demoteLast = yield* call("PATCH", `${base}/${w.alice.id}`, { token: w.alice.token, body: { role: "edit" } })
      expect(demoteLast.status).toBe(409)
      expect(demoteLast.body.error.message).toBe("The last admin of an organization cannot be demoted")
      const removeLast = yield* call("DELETE", `${base}/${w.alice.id}`, { token: w.alice.token })
      expect(removeLast.status).toBe(409)
      const promoted = yield* call("PATCH", `${base}/${w.bob.id}`, { token: w.alice.token, body: { role: "admin" } })
      expect(promoted.status).toBe(200)
      expect(promoted.body.role).toBe("admin")
      const demoted = yield* call("PATCH", `${base}/${w.alice.id}`, { token: w.bob.token, body: { role: "review" } })
      expect(demoted.body.role).toBe("review")
      const unchanged = yield* call("PATCH", `${base}/${w.alice.id}`, { token: w.bob.token, body: {} })
      expect(unchanged.body.role).toBe("review")
      const bad = yield* call("PATCH", `${base}/${w.alice.id}`, { token: w.bob.token, body: { role: "superuser" } })
      expect(bad.status).toBe(400)
      expect((yield* call("PATCH", `${base}/nobody`, { token: w.bob.token, body: { role: "read" } })).status).toBe(404)
    }))

  it.effect("removing: an admin removes a member, a member leaves; their team places go too", () =>
    Effect.gen(function*() {
      const w = yield* world
      const base = `/v1/orgs/${w.organizationId}/members`
      const removed = yield* call("DELETE", `${base}/${w.bob.id}`, { token: w.alice.token })
      expect(removed.status).toBe(204)
      expect((yield* call("GET", `${base}/${w.bob.id}`, { token: w.alice.token })).status).toBe(404)
      expect((yield* call("GET", `/v1/orgs/${w.organizationId}`, { token: w.bob.token })).status).toBe(404)
      const team = yield* call("GET", `/v1/orgs/${w.organizationId}/teams/${w.teamId}`, { token: w.alice.token })
      expect(team.body.members).toBe(0)
      const left = yield* call("DELETE", `${base}/${w.guest.id}`, { token: w.guest.token })
      expect(left.status).toBe(204)
      expect((yield* call("GET", base, { token: w.alice.token })).body.count).toBe(1)
      expect((yield* call("DELETE", `${base}/${w.guest.id}`, { token: w.alice.token })).status).toBe(404)
    }))

  it.effect("sso marks a member; a member's teams are listed with its team role", () =>
    Effect.gen(function*() {
      const w = yield* world
      const sso = yield* call("POST", `/v1/orgs/${w.organizationId}/members/${w.bob.id}/sso`, { token: w.alice.token })
      expect(sso.status).toBe(200)
      expect(sso.body).toMatchObject({ id: w.bob.id, sso: true })
      yield* call("PUT", `/v1/orgs/${w.organizationId}/teams`, { token: w.alice.token, body: { title: "Reviewers", members: [w.bob.id] } })
      const teams = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.bob.id}/teams`, { token: w.bob.token })
      expect(teams.status).toBe(200)
      expect(teams.body.count).toBe(2)
      expect(teams.body.items.map((r: { team: { title: string }; member: { role: string } }) => [r.team.title, r.member.role]))
        .toEqual([["Writers", "member"], ["Reviewers", "member"]])
      const titled = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.bob.id}/teams?title=REVIEW`, { token: w.bob.token })
      expect(titled.body.items.map((r: { team: { title: string } }) => r.team.title)).toEqual(["Reviewers"])
      const guestTeams = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.guest.id}/teams`, { token: w.guest.token })
      expect(guestTeams.body).toEqual({ items: [], count: 0 })
    }))
})
