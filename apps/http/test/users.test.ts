import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ADMIN_TOKEN, call, PUBLIC_URL, testServer } from "./harness.js"
import { chars, newUser } from "./scenario.js"

layer(testServer(MemoryStorage), { excludeTestServices: true })("users and tokens", (it) => {
  it.effect("the instance administrator creates users: 201, Location, every field", () =>
    Effect.gen(function*() {
      const answer = yield* call("POST", "/v1/users", {
        token: ADMIN_TOKEN,
        body: { displayName: "Ada", email: "Ada@Example.com", photoURL: "https://example.com/ada.png" }
      })
      expect(answer.status).toBe(201)
      expect(answer.body).toEqual({
        object: "user",
        id: answer.body.id,
        displayName: "Ada",
        email: "ada@example.com",
        photoURL: "https://example.com/ada.png",
        urls: { location: `${PUBLIC_URL}/v1/users/${answer.body.id}` }
      })
      expect(answer.headers["location"]).toBe(answer.body.urls.location)
      const again = yield* call("POST", "/v1/users", { token: ADMIN_TOKEN, body: { displayName: "Ada 2", email: "ada@example.com" } })
      expect(again.status).toBe(409)
      expect(again.body.error).toEqual({ code: 409, message: "A user with email ada@example.com exists already" })
    }))

  it.effect("user fields are validated at their limits", () =>
    Effect.gen(function*() {
      const ok = yield* call("POST", "/v1/users", { token: ADMIN_TOKEN, body: { displayName: chars(255), email: "long@example.com" } })
      expect(ok.status).toBe(201)
      const cases: ReadonlyArray<[unknown, string]> = [
        [{ displayName: chars(256), email: "x1@example.com" }, "displayName: must be at most 255 characters, got 256"],
        [{ displayName: "", email: "x2@example.com" }, "displayName: must not be empty"],
        [{ displayName: "X", email: "not-an-email" }, "email: must be an email address"],
        [{ email: "x3@example.com" }, "displayName: is missing"],
        [{ displayName: "X", email: "x4@example.com", photoURL: "ftp://x" }, "photoURL: must be an http or https URL"],
        [{ displayName: 42, email: "x5@example.com" }, "displayName: Expected string, actual 42"]
      ]
      for (const [body, message] of cases) {
        const answer = yield* call("POST", "/v1/users", { token: ADMIN_TOKEN, body })
        expect(answer.status).toBe(400)
        expect(answer.body.error.message).toContain(message)
      }
    }))

  it.effect("only the instance administrator creates users", () =>
    Effect.gen(function*() {
      const user = yield* newUser("Plain")
      const answer = yield* call("POST", "/v1/users", { token: user.token, body: { displayName: "X", email: "y@example.com" } })
      expect(answer.status).toBe(403)
    }))

  it.effect("a token authenticates its user until revoked; the secret is shown once", () =>
    Effect.gen(function*() {
      const user = yield* newUser("Tess")
      const me = yield* call("GET", "/v1/user", { token: user.token })
      expect(me.status).toBe(200)
      expect(me.body).toMatchObject({ object: "user", id: user.id, displayName: "Tess" })
      const issued = yield* call("POST", `/v1/users/${user.id}/tokens`, { token: user.token, body: { label: "laptop" } })
      expect(issued.status).toBe(201)
      expect(issued.body).toMatchObject({ object: "api-token", label: "laptop" })
      expect(issued.body.token).toMatch(/^oct_[A-Za-z0-9]{43}$/)
      expect(issued.headers["location"]).toBe(`${PUBLIC_URL}/v1/users/${user.id}/tokens/${issued.body.id}`)
      expect((yield* call("GET", "/v1/user", { token: issued.body.token })).status).toBe(200)
      const label = yield* call("POST", `/v1/users/${user.id}/tokens`, { token: user.token, body: { label: chars(101) } })
      expect(label.status).toBe(400)
      const revoked = yield* call("DELETE", `/v1/users/${user.id}/tokens/${issued.body.id}`, { token: user.token })
      expect(revoked.status).toBe(204)
      expect(revoked.body).toBeNull()
      expect((yield* call("GET", "/v1/user", { token: issued.body.token })).status).toBe(401)
      expect((yield* call("GET", "/v1/user", { token: user.token })).status).toBe(200)
      const unknown = yield* call("DELETE", `/v1/users/${user.id}/tokens/${issued.body.id}x`, { token: user.token })
      expect(unknown.status).toBe(404)
    }))

  it.effect("a user sees itself and users of its organizations; not other users' tokens", () =>
    Effect.gen(function*() {
      const a = yield* newUser("A")
      const b = yield* newUser("B")
      expect((yield* call("GET", `/v1/users/${a.id}`, { token: a.token })).status).toBe(200)
      expect((yield* call("GET", `/v1/users/${b.id}`, { token: a.token })).status).toBe(404)
      expect((yield* call("POST", `/v1/users/${b.id}/tokens`, { token: a.token, body: {} })).status).toBe(404)
      const org = yield* call("POST", "/v1/orgs", { token: a.token, body: { title: "Shared" } })
      const invite = yield* call("POST", `/v1/orgs/${org.body.id}/link-invites`, { token: a.token, body: { role: "read" } })
      yield* call("POST", `/v1/orgs/${org.body.id}/invites/${invite.body.id}`, { token: b.token })
      expect((yield* call("GET", `/v1/users/${b.id}`, { token: a.token })).status).toBe(200)
      expect((yield* call("POST", `/v1/users/${b.id}/tokens`, { token: a.token, body: {} })).status).toBe(403)
      expect((yield* call("GET", `/v1/users/nobody`, { token: ADMIN_TOKEN })).status).toBe(404)
    }))
})
