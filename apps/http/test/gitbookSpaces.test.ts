import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testServer } from "./harness.js"
import { world } from "./scenario.js"

// Requests shaped as GitBook documents them for spaces and collections, and what becomes of them.

const ids = (answer: { readonly body: { readonly items: ReadonlyArray<{ readonly id: string }> } }) => answer.body.items.map((i) => i.id)

layer(testServer(MemoryStorage), { excludeTestServices: true })("spaces and collections as GitBook shapes them", (it) => {
  it.effect("a space's emoji or icon: either replaces the other, null removes it, both at once is 400", () =>
    Effect.gen(function*() {
      const w = yield* world
      const made = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "S", emoji: "📘" } })
      const path = `/v1/spaces/${made.body.id}`
      const patch = (body: unknown) => call("PATCH", path, { token: w.bob.token, body })
      const cleared = yield* patch({ emoji: null })
      expect([cleared.status, cleared.body.emoji, cleared.body.urls.icon]).toEqual([200, "", undefined])
      expect((yield* call("GET", path, { token: w.alice.token })).body.emoji).toBe("")
      const icon = "https://example.com/icon.png"
      const withIcon = yield* patch({ icon })
      expect([withIcon.status, withIcon.body.emoji, withIcon.body.urls.icon]).toEqual([200, "", icon])
      const withEmoji = yield* patch({ emoji: "🎉", icon: null })
      expect([withEmoji.status, withEmoji.body.emoji, withEmoji.body.urls.icon]).toEqual([200, "🎉", undefined])
      yield* patch({ icon })
      const emojiOverIcon = yield* patch({ emoji: "🚀" })
      expect([emojiOverIcon.body.emoji, emojiOverIcon.body.urls.icon]).toEqual(["🚀", undefined])
      const removed = yield* patch({ emoji: null, icon: null })
      expect([removed.status, removed.body.emoji, removed.body.urls.icon]).toEqual([200, "", undefined])
      const both = yield* patch({ emoji: "🎉", icon })
      expect([both.status, both.body.error.message]).toEqual([400, "icon: give either an emoji or an icon, not both"])
      expect((yield* patch({ icon: "not a url" })).status).toBe(400)
      expect((yield* call("GET", path, { token: w.alice.token })).body.emoji).toBe("")
    }))

  it.effect("default levels: inherit and null are kept, answered back, and decide what members may do", () =>
    Effect.gen(function*() {
      const w = yield* world
      const outer = yield* call("POST", `/v1/orgs/${w.organizationId}/collections`, { token: w.alice.token, body: { title: "Outer" } })
      const inner = yield* call("POST", `/v1/orgs/${w.organizationId}/collections`, {
        token: w.alice.token,
        body: { title: "Inner", parent: outer.body.id }
      })
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, {
        token: w.alice.token,
        body: { title: "S", parent: inner.body.id }
      })
      const spacePath = `/v1/spaces/${space.body.id}`
      const innerPath = `/v1/collections/${inner.body.id}`
      // Bob's organization role is edit; an admin default level above him makes him admin below.
      expect((yield* call("PATCH", `/v1/collections/${outer.body.id}`, { token: w.alice.token, body: { defaultLevel: "admin" } })).status)
        .toBe(200)
      const bobOn = () =>
        Effect.map(
          Effect.all([call("GET", innerPath, { token: w.bob.token }), call("GET", spacePath, { token: w.bob.token })]),
          ([c, s]) => [c.body.permissions.admin, s.body.permissions.admin]
        )
      expect(yield* bobOn()).toEqual([true, true])
      const inherit = yield* call("PATCH", spacePath, { token: w.alice.token, body: { defaultLevel: "inherit" } })
      expect([inherit.status, inherit.body.defaultLevel]).toEqual([200, "inherit"])
      expect(yield* bobOn()).toEqual([true, true])
      const none = yield* call("PATCH", innerPath, { token: w.alice.token, body: { defaultLevel: null } })
      expect([none.status, none.body.defaultLevel]).toEqual([200, null])
      expect((yield* call("GET", innerPath, { token: w.alice.token })).body.defaultLevel).toBeNull()
      // Nothing above the inner collection applies any more: bob is back to his role.
      expect(yield* bobOn()).toEqual([false, false])
      const spaceNone = yield* call("PATCH", spacePath, { token: w.alice.token, body: { defaultLevel: null } })
      expect([spaceNone.status, spaceNone.body.defaultLevel]).toEqual([200, null])
      const collectionInherit = yield* call("PATCH", innerPath, { token: w.alice.token, body: { defaultLevel: "inherit" } })
      expect([collectionInherit.status, collectionInherit.body.defaultLevel]).toEqual([200, "inherit"])
      expect(yield* bobOn()).toEqual([true, false])
      expect((yield* call("PATCH", spacePath, { token: w.alice.token, body: { defaultLevel: "owner" } })).status).toBe(400)
    }))

  it.effect("positions name a space or a collection among the siblings, with GitBook's space and collection pointers", () =>
    Effect.gen(function*() {
      const w = yield* world
      const org = `/v1/orgs/${w.organizationId}`
      const shelf = yield* call("POST", `${org}/collections`, { token: w.alice.token, body: { title: "Shelf" } })
      const inShelf = (kind: "spaces" | "collections", title: string) =>
        Effect.map(
          call("POST", `${org}/${kind}`, { token: w.alice.token, body: { title, parent: shelf.body.id } }),
          (answer) => answer.body.id as string
        )
      // Under the shelf, in this order: collection C, space A, space B.
      const c = yield* inShelf("collections", "C")
      const a = yield* inShelf("spaces", "A")
      const b = yield* inShelf("spaces", "B")
      const spacesInShelf = () => Effect.map(call("GET", `/v1/collections/${shelf.body.id}/spaces`, { token: w.bob.token }), ids)
      expect(yield* spacesInShelf()).toEqual([a, b])
      const before = yield* call("POST", `/v1/spaces/${b}/move`, {
        token: w.alice.token,
        body: { position: { before: { type: "collection", collection: c } } }
      })
      expect(before.status).toBe(200)
      // B, C, A
      expect(yield* spacesInShelf()).toEqual([b, a])
      const after = yield* call("POST", `/v1/spaces/${b}/move`, {
        token: w.alice.token,
        body: { parent: shelf.body.id, position: { after: { type: "collection", collection: c } } }
      })
      expect(after.status).toBe(200)
      // C, B, A
      expect(yield* spacesInShelf()).toEqual([b, a])
      const between = yield* call("POST", `/v1/spaces/${a}/move`, {
        token: w.alice.token,
        body: { position: { after: { type: "collection", collection: c }, before: { type: "space", space: b } } }
      })
      expect(between.status).toBe(200)
      // C, A, B
      expect(yield* spacesInShelf()).toEqual([a, b])

      // Collections at the top of the organization: Shelf, then Top.
      const top = yield* call("POST", `${org}/collections`, { token: w.alice.token, body: { title: "Top" } })
      const topCollections = () => Effect.map(call("GET", `${org}/collections?nested=false`, { token: w.bob.token }), ids)
      expect(yield* topCollections()).toEqual([shelf.body.id, top.body.id])
      const moved = yield* call("POST", `/v1/collections/${top.body.id}/move`, {
        token: w.alice.token,
        body: { position: { before: { type: "collection", collection: shelf.body.id } } }
      })
      expect(moved.status).toBe(200)
      expect(yield* topCollections()).toEqual([top.body.id, shelf.body.id])

      // A pointer to an item that is not a sibling under the target parent names its field.
      const stranger = yield* call("POST", `/v1/spaces/${a}/move`, {
        token: w.alice.token,
        body: { position: { before: { type: "collection", collection: top.body.id } } }
      })
      expect([stranger.status, stranger.body.error.message]).toEqual([
        400,
        `position.before.collection: ${top.body.id} is not a sibling under the target parent`
      ])
      const unknownType = yield* call("POST", `/v1/spaces/${a}/move`, {
        token: w.alice.token,
        body: { position: { before: { type: "page", page: c } } }
      })
      expect(unknownType.status).toBe(400)
      expect(yield* spacesInShelf()).toEqual([a, b])
    }))

  it.effect("GitBook's optional create fields that Octavo has no use for are accepted and ignored", () =>
    Effect.gen(function*() {
      const w = yield* world
      const made = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, {
        token: w.alice.token,
        body: { title: "Empty", language: "fr", empty: true }
      })
      expect([made.status, made.body.title, made.body.language]).toEqual([201, "Empty", undefined])
      const content = yield* call("GET", `/v1/spaces/${made.body.id}/content`, { token: w.alice.token })
      expect(content.body.pages).toEqual([])
    }))
})
