import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, PUBLIC_URL, testServer } from "./harness.js"
import { chars, world } from "./scenario.js"

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/** The organization of `world`, with a collection holding a space, and a custom field. */
const contentWorld = Effect.gen(function*() {
  const w = yield* world
  const collection = yield* call("POST", `/v1/orgs/${w.organizationId}/collections`, { token: w.alice.token, body: { title: "Guides" } })
  expect(collection.status).toBe(201)
  const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, {
    token: w.alice.token,
    body: { title: "Handbook", parent: collection.body.id }
  })
  expect(space.status).toBe(201)
  const field = yield* call("POST", `/v1/orgs/${w.organizationId}/custom-fields`, {
    token: w.alice.token,
    body: { name: "audience", type: "select", options: ["devs", "ops"] }
  })
  expect(field.status).toBe(201)
  return { ...w, collectionId: collection.body.id as string, spaceId: space.body.id as string }
})
type ContentWorld = Effect.Effect.Success<typeof contentWorld>

/**
 * Every endpoint of the slice with what an editor (bob, role edit) and a guest get when they
 * lack what it needs: content a guest cannot see is hidden (404); a visible action beyond the
 * caller's level is 403. Without a token: 401; from another organization: 404.
 */
const endpoints: ReadonlyArray<{
  readonly method: Method
  readonly path: (w: ContentWorld) => string
  /** "transfer" stands for a transfer to the other organization of the world. */
  readonly body?: unknown
  readonly bob: number | "ok"
  readonly guest: number
}> = [
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/collections`, bob: "ok", guest: 403 },
  { method: "POST", path: (w) => `/v1/orgs/${w.organizationId}/collections`, body: { title: "X" }, bob: 403, guest: 403 },
  { method: "GET", path: (w) => `/v1/collections/${w.collectionId}`, bob: "ok", guest: 404 },
  { method: "PATCH", path: (w) => `/v1/collections/${w.collectionId}`, body: { defaultLevel: "edit" }, bob: 403, guest: 404 },
  { method: "DELETE", path: (w) => `/v1/collections/${w.collectionId}`, bob: 403, guest: 404 },
  { method: "GET", path: (w) => `/v1/collections/${w.collectionId}/spaces`, bob: "ok", guest: 404 },
  { method: "POST", path: (w) => `/v1/collections/${w.collectionId}/move`, body: { parent: null }, bob: 403, guest: 404 },
  { method: "POST", path: (w) => `/v1/collections/${w.collectionId}/transfer`, body: "transfer", bob: 403, guest: 404 },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/spaces`, bob: "ok", guest: 403 },
  { method: "POST", path: (w) => `/v1/orgs/${w.organizationId}/spaces`, body: { title: "X" }, bob: 403, guest: 403 },
  { method: "GET", path: (w) => `/v1/spaces/${w.spaceId}`, bob: "ok", guest: 404 },
  { method: "PATCH", path: (w) => `/v1/spaces/${w.spaceId}`, body: { editMode: "locked" }, bob: 403, guest: 404 },
  { method: "DELETE", path: (w) => `/v1/spaces/${w.spaceId}`, bob: 403, guest: 404 },
  { method: "POST", path: (w) => `/v1/spaces/${w.spaceId}/duplicate`, bob: 403, guest: 404 },
  { method: "POST", path: (w) => `/v1/spaces/${w.spaceId}/restore`, bob: 403, guest: 404 },
  { method: "POST", path: (w) => `/v1/spaces/${w.spaceId}/move`, body: { parent: null }, bob: 403, guest: 404 },
  { method: "POST", path: (w) => `/v1/spaces/${w.spaceId}/transfer`, body: "transfer", bob: 403, guest: 404 },
  { method: "GET", path: (w) => `/v1/spaces/${w.spaceId}/custom-fields`, bob: "ok", guest: 404 },
  {
    method: "PATCH",
    path: (w) => `/v1/spaces/${w.spaceId}/custom-fields`,
    body: { values: { audience: { value: "devs" } } },
    bob: "ok",
    guest: 404
  },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/members/${w.bob.id}/spaces`, bob: "ok", guest: 403 },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/custom-fields`, bob: "ok", guest: 403 },
  { method: "POST", path: (w) => `/v1/orgs/${w.organizationId}/custom-fields`, body: { name: "x", type: "text" }, bob: 403, guest: 403 },
  { method: "GET", path: (w) => `/v1/orgs/${w.organizationId}/custom-fields/audience`, bob: "ok", guest: 403 },
  { method: "PATCH", path: (w) => `/v1/orgs/${w.organizationId}/custom-fields/audience`, body: { title: "A" }, bob: 403, guest: 403 },
  { method: "DELETE", path: (w) => `/v1/orgs/${w.organizationId}/custom-fields/audience`, bob: 403, guest: 403 }
]

layer(testServer(MemoryStorage), { excludeTestServices: true })("collections, spaces, custom fields", (it) => {
  it.effect("every endpoint refuses 401 without a token, 404 across organizations, and 403 or 404 below its level", () =>
    Effect.gen(function*() {
      const w = yield* contentWorld
      for (const endpoint of endpoints) {
        const e = endpoint.body === "transfer" ? { ...endpoint, body: { organization: w.otherOrganizationId } } : endpoint
        const label = `${e.method} ${e.path(w)}`
        expect([label, (yield* call(e.method, e.path(w), { body: e.body })).status]).toEqual([label, 401])
        expect([label, (yield* call(e.method, e.path(w), { token: w.carol.token, body: e.body })).status]).toEqual([label, 404])
        expect([label, "guest", (yield* call(e.method, e.path(w), { token: w.guest.token, body: e.body })).status]).toEqual([
          label,
          "guest",
          e.guest
        ])
        if (e.bob !== "ok") {
          expect([label, "bob", (yield* call(e.method, e.path(w), { token: w.bob.token, body: e.body })).status]).toEqual([
            label,
            "bob",
            e.bob
          ])
        }
      }
      // Nothing changed: the space is still in its collection, live, with its title.
      const space = yield* call("GET", `/v1/spaces/${w.spaceId}`, { token: w.alice.token })
      expect(space.body).toMatchObject({ title: "Handbook", parent: w.collectionId, editMode: "live" })
      expect((yield* call("GET", `/v1/orgs/${w.organizationId}/custom-fields/audience`, { token: w.alice.token })).status).toBe(200)
    }))

  it.effect("collections: create (201, Location, title max 50), update (description max 100), list nested or top", () =>
    Effect.gen(function*() {
      const w = yield* contentWorld
      const base = `/v1/orgs/${w.organizationId}/collections`
      const made = yield* call("POST", base, { token: w.alice.token, body: { title: chars(50), parent: w.collectionId } })
      expect(made.status).toBe(201)
      expect(made.body).toEqual({
        object: "collection",
        id: made.body.id,
        title: chars(50),
        organization: w.organizationId,
        parent: w.collectionId,
        defaultLevel: "read",
        urls: { location: `${PUBLIC_URL}/v1/collections/${made.body.id}`, app: `${PUBLIC_URL}/o/${w.organizationId}/c/${made.body.id}` },
        permissions: { view: true, admin: true, viewInviteLinks: true, create: true, edit: true }
      })
      expect(made.headers["location"]).toBe(made.body.urls.location)
      expect((yield* call("POST", base, { token: w.alice.token, body: { title: chars(51) } })).body.error.message)
        .toBe("title: must be at most 50 characters, got 51")
      expect((yield* call("POST", base, { token: w.alice.token, body: { parent: "nope" } })).status).toBe(400)
      const path = `/v1/collections/${w.collectionId}`
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { description: chars(100) } })).body.description).toBe(chars(100))
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { description: chars(101) } })).status).toBe(400)
      expect((yield* call("PATCH", path, { token: w.bob.token, body: { title: "Edited by Bob" } })).body.title).toBe("Edited by Bob")
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { defaultLevel: "owner" } })).status).toBe(400)
      const nested = yield* call("GET", base, { token: w.bob.token })
      expect(nested.body.count).toBe(2)
      const top = yield* call("GET", `${base}?nested=false`, { token: w.bob.token })
      expect(top.body.items.map((c: { id: string }) => c.id)).toEqual([w.collectionId])
      expect((yield* call("GET", `${base}?nested=maybe`, { token: w.bob.token })).status).toBe(400)
      const bobView = yield* call("GET", path, { token: w.bob.token })
      expect(bobView.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false, edit: true })
    }))

  it.effect("collections: moving into itself or below is 409; deleting keeps what it holds", () =>
    Effect.gen(function*() {
      const w = yield* contentWorld
      const inner = yield* call("POST", `/v1/orgs/${w.organizationId}/collections`, {
        token: w.alice.token,
        body: { title: "Inner", parent: w.collectionId }
      })
      const cycle = yield* call("POST", `/v1/collections/${w.collectionId}/move`, { token: w.alice.token, body: { parent: inner.body.id } })
      expect(cycle.status).toBe(409)
      expect(cycle.body.error.message).toBe("A collection cannot be moved into itself or one of its descendants")
      const moved = yield* call("POST", `/v1/collections/${inner.body.id}/move`, { token: w.alice.token, body: { parent: null } })
      expect(moved.status).toBe(200)
      expect(moved.body.parent).toBeUndefined()
      expect((yield* call("DELETE", `/v1/collections/${w.collectionId}`, { token: w.alice.token })).status).toBe(204)
      expect((yield* call("GET", `/v1/collections/${w.collectionId}`, { token: w.alice.token })).status).toBe(404)
      const space = yield* call("GET", `/v1/spaces/${w.spaceId}`, { token: w.alice.token })
      expect(space.status).toBe(200)
      expect(space.body.parent).toBeUndefined()
      expect(space.body.visibility).toBe("private")
    }))

  it.effect("spaces: create, read every field, update limits, list in order", () =>
    Effect.gen(function*() {
      const w = yield* contentWorld
      const base = `/v1/orgs/${w.organizationId}/spaces`
      const made = yield* call("POST", base, { token: w.alice.token, body: { title: chars(50), emoji: "📘", editMode: "locked" } })
      expect(made.status).toBe(201)
      expect(made.body).toEqual({
        object: "space",
        id: made.body.id,
        title: chars(50),
        emoji: "📘",
        visibility: "private",
        createdAt: made.body.createdAt,
        updatedAt: made.body.updatedAt,
        editMode: "locked",
        mergeRules: { type: "inherit" },
        urls: { location: `${PUBLIC_URL}/v1/spaces/${made.body.id}`, app: `${PUBLIC_URL}/o/${w.organizationId}/s/${made.body.id}` },
        organization: w.organizationId,
        revision: made.body.revision,
        defaultLevel: "read",
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        permissions: {
          view: true,
          access: true,
          admin: true,
          viewInviteLinks: true,
          edit: true,
          triggerGitSync: true,
          comment: true,
          merge: true,
          review: true,
          installIntegration: true
        }
      })
      expect(made.headers["location"]).toBe(made.body.urls.location)
      expect((yield* call("POST", base, { token: w.alice.token, body: { title: chars(51) } })).status).toBe(400)
      const path = `/v1/spaces/${made.body.id}`
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { emoji: chars(50) } })).status).toBe(200)
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { emoji: chars(51) } })).status).toBe(400)
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { editMode: "frozen" } })).status).toBe(400)
      expect((yield* call("PATCH", path, { token: w.alice.token, body: { editMode: "live", defaultLevel: "edit" } })).body)
        .toMatchObject({ editMode: "live", defaultLevel: "edit" })
      expect((yield* call("PATCH", path, { token: w.bob.token, body: { title: "Bob's title" } })).body.title).toBe("Bob's title")
      expect((yield* call("GET", `${path}?shareKey=abc-123`, { token: w.bob.token })).status).toBe(200)
      expect((yield* call("GET", `${path}?shareKey=${encodeURIComponent("bad key!")}`, { token: w.bob.token })).status).toBe(400)
      const listed = yield* call("GET", base, { token: w.bob.token })
      expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([w.spaceId, made.body.id])
      const bobPerms = (yield* call("GET", `/v1/spaces/${w.spaceId}`, { token: w.bob.token })).body.permissions
      expect(bobPerms).toEqual({
        view: true,
        access: true,
        admin: false,
        viewInviteLinks: false,
        edit: true,
        triggerGitSync: false,
        comment: true,
        merge: false,
        review: false,
        installIntegration: false
      })
    }))

  it.effect("spaces: soft delete hides, restore brings back, duplicate and positions", () =>
    Effect.gen(function*() {
      const w = yield* contentWorld
      const path = `/v1/spaces/${w.spaceId}`
      expect((yield* call("POST", `${path}/restore`, { token: w.alice.token })).status).toBe(409)
      expect((yield* call("DELETE", path, { token: w.alice.token })).status).toBe(204)
      expect((yield* call("GET", path, { token: w.alice.token })).status).toBe(404)
      expect((yield* call("GET", `/v1/collections/${w.collectionId}/spaces`, { token: w.alice.token })).body.count).toBe(0)
      const restored = yield* call("POST", `${path}/restore`, { token: w.alice.token })
      expect(restored.status).toBe(200)
      expect(restored.body.deletedAt).toBeUndefined()
      const copy = yield* call("POST", `${path}/duplicate`, { token: w.alice.token })
      expect(copy.status).toBe(201)
      expect(copy.body).toMatchObject({ title: "Handbook", parent: w.collectionId, visibility: "in-collection" })
      expect(copy.body.id).not.toBe(w.spaceId)
      const third = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, {
        token: w.alice.token,
        body: { title: "Third", parent: w.collectionId }
      })
      const order = () =>
        Effect.map(call("GET", `/v1/collections/${w.collectionId}/spaces`, { token: w.alice.token }), (a) =>
          a.body.items.map((s: { title: string }) => s.title))
      expect(yield* order()).toEqual(["Handbook", "Handbook", "Third"])
      yield* call("POST", `/v1/spaces/${third.body.id}/move`, {
        token: w.alice.token,
        body: { position: { before: { type: "space", space: w.spaceId } } }
      })
      expect(yield* order()).toEqual(["Third", "Handbook", "Handbook"])
      const stray = yield* call("POST", `/v1/spaces/${third.body.id}/move`, {
        token: w.alice.token,
        body: { parent: null, position: { after: { type: "space", space: w.spaceId } } }
      })
      expect(stray.status).toBe(400)
      expect(stray.body.error.message).toContain("position.after.space")
      const paged = yield* call("GET", `/v1/collections/${w.collectionId}/spaces?limit=2`, { token: w.alice.token })
      const rest = yield* call("GET", `/v1/collections/${w.collectionId}/spaces?limit=2&page=${paged.body.next.page}`, {
        token: w.alice.token
      })
      expect([...paged.body.items, ...rest.body.items].map((s: { title: string }) =>
        s.title
      )).toEqual(["Third", "Handbook", "Handbook"])
    }))

  it.effect("spaces: transfer to another organization needs admin in both", () =>
    Effect.gen(function*() {
      const w = yield* contentWorld
      const path = `/v1/spaces/${w.spaceId}/transfer`
      expect((yield* call("POST", path, { token: w.alice.token, body: { organization: w.otherOrganizationId } })).status).toBe(404)
      const invite = yield* call("POST", `/v1/orgs/${w.otherOrganizationId}/link-invites`, {
        token: w.carol.token,
        body: { role: "admin" }
      })
      yield* call("POST", `/v1/orgs/${w.otherOrganizationId}/invites/${invite.body.id}`, { token: w.alice.token })
      const moved = yield* call("POST", path, { token: w.alice.token, body: { organization: w.otherOrganizationId } })
      expect(moved.status).toBe(200)
      expect(moved.body).toMatchObject({ organization: w.otherOrganizationId, visibility: "private" })
      expect(moved.body.parent).toBeUndefined()
      expect((yield* call("GET", `/v1/spaces/${w.spaceId}`, { token: w.carol.token })).status).toBe(200)
      expect((yield* call("GET", `/v1/spaces/${w.spaceId}`, { token: w.bob.token })).status).toBe(404)
      const collection = yield* call("POST", `/v1/collections/${w.collectionId}/transfer`, {
        token: w.alice.token,
        body: { organization: w.otherOrganizationId }
      })
      expect(collection.body.organization).toBe(w.otherOrganizationId)
    }))

  it.effect("custom fields: limits, immutable name, values checked per type, member spaces with levels", () =>
    Effect.gen(function*() {
      const w = yield* contentWorld
      const base = `/v1/orgs/${w.organizationId}/custom-fields`
      const cases: ReadonlyArray<[unknown, number]> = [
        [{ name: chars(50, "n"), type: "text" }, 201],
        [{ name: chars(51, "m"), type: "text" }, 400],
        [{ name: "Bad Name", type: "text" }, 400],
        [{ name: "", type: "text" }, 400],
        [{ name: "kind", type: "color" }, 400],
        [{ name: "t100", type: "text", title: chars(100), description: chars(200), placeholder: chars(100) }, 201],
        [{ name: "t101", type: "text", title: chars(101) }, 400],
        [{ name: "d201", type: "text", description: chars(201) }, 400],
        [{ name: "p101", type: "text", placeholder: chars(101) }, 400],
        [{ name: "o50", type: "multi-select", options: Array.from({ length: 50 }, (_, i) => `o${i}`) }, 201],
        [{ name: "o51", type: "multi-select", options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 400],
        [{ name: "o0", type: "select", options: [] }, 400],
        [{ name: "nooptions", type: "select" }, 400],
        [{ name: "textoptions", type: "text", options: ["a"] }, 400],
        [{ name: "audience", type: "text" }, 409],
        [{ name: "pages", type: "number" }, 201],
        [{ name: "flag", type: "boolean" }, 201]
      ]
      for (const [body, status] of cases) {
        const answer = yield* call("POST", base, { token: w.alice.token, body })
        expect([body, answer.status]).toEqual([body, status])
      }
      const updated = yield* call("PATCH", `${base}/audience`, {
        token: w.alice.token,
        body: { title: "Audience", options: ["devs", "ops", "pms"] }
      })
      expect(updated.body).toMatchObject({ name: "audience", type: "select", title: "Audience", options: ["devs", "ops", "pms"] })
      expect((yield* call("GET", `${base}/missing`, { token: w.alice.token })).status).toBe(404)
      const values = `/v1/spaces/${w.spaceId}/custom-fields`
      const bad: ReadonlyArray<unknown> = [
        { audience: { value: "execs" } },
        { pages: { value: "three" } },
        { flag: { value: 1 } },
        { unknown: { value: "x" } },
        { pages: { value: 3 }, audience: { value: "nobody" } }
      ]
      for (const patch of bad) {
        const answer = yield* call("PATCH", values, { token: w.bob.token, body: { values: patch } })
        expect([patch, answer.status]).toEqual([patch, 400])
      }
      const before = yield* call("GET", values, { token: w.bob.token })
      expect(before.body.every((v: { value?: unknown }) => v.value === undefined)).toBe(true)
      expect(
        (yield* call("PATCH", values, {
          token: w.bob.token,
          body: { values: { pages: { value: 3 }, audience: { value: "pms" }, flag: { value: true } } }
        })).status
      ).toBe(204)
      const after = yield* call("GET", values, { token: w.bob.token })
      const byName = Object.fromEntries(
        after.body.map((v: { customField: { name: string }; value?: unknown }) => [v.customField.name, v.value])
      )
      expect(byName).toMatchObject({ pages: 3, audience: "pms", flag: true })
      yield* call("PATCH", values, { token: w.bob.token, body: { values: { pages: { value: null } } } })
      const cleared = yield* call("GET", values, { token: w.bob.token })
      expect(cleared.body.find((v: { customField: { name: string } }) => v.customField.name === "pages").value).toBeUndefined()
      expect((yield* call("DELETE", `${base}/flag`, { token: w.alice.token })).status).toBe(204)
      expect((yield* call("GET", `${base}/flag`, { token: w.alice.token })).status).toBe(404)
      yield* call("PATCH", `/v1/spaces/${w.spaceId}`, { token: w.alice.token, body: { defaultLevel: "review" } })
      const memberSpaces = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.bob.id}/spaces`, { token: w.alice.token })
      expect(memberSpaces.body.items.map((r: { permission: string; space: { id: string } }) => [r.space.id, r.permission]))
        .toEqual([[w.spaceId, "review"]])
      const guestSpaces = yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.guest.id}/spaces`, { token: w.alice.token })
      // A guest can access no space: none is listed (GitBook lists the spaces a member can access).
      expect([guestSpaces.status, guestSpaces.body.items, guestSpaces.body.count]).toEqual([200, [], 0])
      yield* Effect.sleep("2 millis")
      const later = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Later" } })
      const spacesOf = (order: string) =>
        Effect.map(call("GET", `/v1/orgs/${w.organizationId}/members/${w.bob.id}/spaces${order}`, { token: w.alice.token }), (a) =>
          a.body.items.map((r: { space: { id: string } }) => r.space.id))
      expect(yield* spacesOf("")).toEqual([later.body.id, w.spaceId])
      expect(yield* spacesOf("?order=asc")).toEqual([w.spaceId, later.body.id])
      expect((yield* call("GET", `/v1/orgs/${w.organizationId}/members/${w.bob.id}/spaces?order=up`, { token: w.alice.token })).status)
        .toBe(400)
    }))
})
