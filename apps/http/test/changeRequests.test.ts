import * as HttpClient from "@effect/platform/HttpClient"
import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testServer } from "./harness.js"
import { chars, world } from "./scenario.js"

layer(testServer(MemoryStorage), { excludeTestServices: true })("change requests over HTTP", (it) => {
  it.effect("open, edit, read, merge: the space gets a merge revision and the old one stays readable", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Docs" } })
      const spaceId = space.body.id as string
      const base = `/v1/spaces/${spaceId}/change-requests`
      const cr = yield* call("POST", base, { token: w.bob.token, body: { subject: "First pages" } })
      expect(cr.status).toBe(201)
      expect(cr.body).toMatchObject({
        object: "change-request",
        number: 1,
        status: "draft",
        subject: "First pages",
        outdated: false,
        revision: space.body.revision
      })
      expect(cr.headers["location"]).toBe(cr.body.urls.location)
      const edited = yield* call("POST", `${base}/1/content?compat=false`, {
        token: w.bob.token,
        body: {
          changes: [
            { operation: "insert_page", document: { markdown: "# Guide\n\nRead [the intro](https://example.com)." } },
            { operation: "insert_files", files: [{ name: "notes.txt", contentType: "text/plain", base64: btoa("hello") }] }
          ]
        }
      })
      expect(edited.status).toBe(200)
      expect(edited.body.changeRequest).toMatchObject({ object: "change-request", number: 1 })
      expect(edited.body.insertedFiles).toMatchObject([{ name: "notes.txt", size: 5 }])
      const guideId = edited.body.changes[0].page.id
      // The default (GitBook's compat=true) answers the change request itself.
      const compat = yield* call("POST", `${base}/1/content`, {
        token: w.bob.token,
        body: { changes: [{ operation: "update_page", page: guideId, description: "Where to start" }] }
      })
      expect(compat.body).toMatchObject({ object: "change-request", number: 1, createdBy: { object: "user", id: w.bob.id } })
      yield* call("POST", `${base}/1/content`, {
        token: w.bob.token,
        body: { changes: [{ operation: "insert_page", title: "Child", into: guideId }] }
      })
      const crContent = yield* call("GET", `${base}/${cr.body.id}/content`, { token: w.bob.token })
      expect(crContent.body.pages[0]).toMatchObject({ title: "Guide", pages: [{ title: "Child", path: "guide/child" }] })
      const crPage = yield* call("GET", `${base}/1/content/page/${guideId}?format=document`, { token: w.bob.token })
      expect(crPage.body.document.nodes[0].type).toBe("paragraph")
      const crFiles = yield* call("GET", `${base}/1/content/files`, { token: w.bob.token })
      expect(crFiles.body.items.map((f: { name: string }) => f.name)).toEqual(["notes.txt"])
      const crFile = yield* call("GET", `${base}/1/content/files/${crFiles.body.items[0].id}`, { token: w.bob.token })
      expect(crFile.body.downloadURL).toBe(`https://docs.test${base}/1/content/files/${crFile.body.id}/download`)
      const bytes = yield* Effect.gen(function*() {
        const response = yield* (yield* HttpClient.HttpClient).get(`${base}/1/content/files/${crFile.body.id}/download`, {
          headers: { authorization: `Bearer ${w.bob.token}` }
        })
        return yield* response.text
      }).pipe(Effect.scoped, Effect.orDie)
      expect(bytes).toBe("hello")
      expect((yield* call("GET", `/v1/spaces/${spaceId}/content/files/${crFile.body.id}`, { token: w.bob.token })).status).toBe(404)
      const crLinks = yield* call("GET", `${base}/1/content/page/${guideId}/links`, { token: w.bob.token })
      expect(crLinks.body).toMatchObject({ count: 1, stats: { total: 1, broken: { total: 0, changeRequest: 0 } } })
      const backlinks = yield* call("GET", `${base}/1/content/files/${crFile.body.id}/backlinks`, { token: w.bob.token })
      expect(backlinks.body).toMatchObject({ items: [], count: 0 })
      expect((yield* call("GET", `/v1/spaces/${spaceId}/content`, { token: w.bob.token })).body.pages).toEqual([])
      const counted = yield* call("GET", `/v1/spaces/${spaceId}`, { token: w.bob.token })
      expect(counted.body).toMatchObject({ changeRequests: 1, changeRequestsDraft: 1, changeRequestsOpen: 0 })
      expect((yield* call("PATCH", `${base}/1`, { token: w.bob.token, body: { status: "open" } })).body.status).toBe("open")
      expect((yield* call("GET", `/v1/spaces/${spaceId}`, { token: w.bob.token })).body).toMatchObject({
        changeRequestsOpen: 1,
        changeRequestsDraft: 0
      })

      // An editor may not merge: that takes review.
      expect((yield* call("POST", `${base}/1/merge`, { token: w.bob.token })).status).toBe(403)
      const merged = yield* call("POST", `${base}/1/merge`, { token: w.alice.token })
      expect(merged.body.result).toBe("merge")
      const after = yield* call("GET", `/v1/spaces/${spaceId}/content`, { token: w.bob.token })
      expect(after.body).toMatchObject({
        id: merged.body.revision,
        type: "merge",
        pages: [{ title: "Guide", pages: [{ title: "Child" }] }]
      })
      expect(after.body.files.map((f: { name: string }) => f.name)).toEqual(["notes.txt"])
      expect((yield* call("GET", `/v1/spaces/${spaceId}`, { token: w.bob.token })).body.revision).toBe(merged.body.revision)
      const old = yield* call("GET", `/v1/spaces/${spaceId}/revisions/${space.body.revision}`, { token: w.bob.token })
      expect(old.body.pages).toEqual([])
      expect((yield* call("GET", `${base}/1`, { token: w.bob.token })).body).toMatchObject({ status: "merged", outdated: false })
      expect((yield* call("PATCH", `${base}/1`, { token: w.bob.token, body: { status: "open" } })).status).toBe(409)
      expect((yield* call("POST", `${base}/1/merge`, { token: w.alice.token })).status).toBe(409)
    }))

  it.effect("a conflicting merge changes nothing; update brings the space's changes in", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Docs" } })
      const spaceId = space.body.id as string
      const live = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token: w.alice.token,
        body: { changes: [{ operation: "insert_page", title: "Shared" }, { operation: "insert_page", title: "Other" }] }
      })
      const shared = live.body.pages.find((p: { title: string }) => p.title === "Shared").id
      const other = live.body.pages.find((p: { title: string }) => p.title === "Other").id
      const base = `/v1/spaces/${spaceId}/change-requests`
      const cr = yield* call("POST", base, { token: w.alice.token, body: {} })
      yield* call("POST", `${base}/${cr.body.number}/content`, {
        token: w.alice.token,
        body: { changes: [{ operation: "update_page", page: shared, title: "From the change request" }] }
      })
      const spaceEdit = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token: w.alice.token,
        body: { changes: [{ operation: "update_page", page: shared, title: "From the space" }] }
      })
      expect((yield* call("GET", `${base}/${cr.body.id}`, { token: w.alice.token })).body.outdated).toBe(true)
      const conflict = yield* call("POST", `${base}/${cr.body.id}/merge`, { token: w.alice.token })
      expect(conflict.body.result).toBe("conflicts")
      const unchanged = yield* call("GET", `/v1/spaces/${spaceId}/content`, { token: w.alice.token })
      expect(unchanged.body.id).toBe(spaceEdit.body.id)
      expect(unchanged.body.pages.find((p: { id: string }) => p.id === shared).title).toBe("From the space")
      expect((yield* call("POST", `${base}/${cr.body.id}/update`, { token: w.alice.token })).body.result).toBe("conflicts")

      // A second change request touching another page merges after an update.
      const second = yield* call("POST", base, { token: w.alice.token, body: { subject: "Other page" } })
      expect(second.body.number).toBe(2)
      yield* call("POST", `${base}/2/content`, {
        token: w.alice.token,
        body: { changes: [{ operation: "update_page", page: other, title: "Renamed" }] }
      })
      yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token: w.alice.token,
        body: { changes: [{ operation: "insert_page", title: "Late" }] }
      })
      expect((yield* call("GET", `${base}/2`, { token: w.alice.token })).body.outdated).toBe(true)
      const updated = yield* call("POST", `${base}/2/update`, { token: w.alice.token })
      expect(updated.body.result).toBe("update")
      expect((yield* call("GET", `${base}/2`, { token: w.alice.token })).body.outdated).toBe(false)
      const crPages = yield* call("GET", `${base}/2/content/pages`, { token: w.alice.token })
      expect(crPages.body.pages.map((p: { title: string }) => p.title).sort()).toEqual(["From the space", "Late", "Renamed"])
      expect((yield* call("POST", `${base}/2/merge`, { token: w.alice.token })).body.result).toBe("merge")
      const final = yield* call("GET", `/v1/spaces/${spaceId}/content`, { token: w.alice.token })
      expect(final.body.pages.map((p: { title: string }) => p.title).sort()).toEqual(["From the space", "Late", "Renamed"])
    }))

  it.effect("subjects, statuses, lists, locked spaces and access", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Docs" } })
      const base = `/v1/spaces/${space.body.id}/change-requests`
      expect((yield* call("POST", base, { token: w.bob.token, body: { subject: chars(100) } })).status).toBe(201)
      expect((yield* call("POST", base, { token: w.bob.token, body: { subject: chars(101) } })).status).toBe(400)
      expect((yield* call("PATCH", `${base}/1`, { token: w.bob.token, body: { status: "merged" } })).status).toBe(400)
      expect((yield* call("PATCH", `${base}/1`, { token: w.bob.token, body: { status: "archived" } })).body.status).toBe("archived")
      expect(
        (yield* call("POST", `${base}/1/content`, { token: w.bob.token, body: { changes: [{ operation: "insert_page", title: "X" }] } }))
          .status
      ).toBe(409)
      yield* call("POST", base, { token: w.bob.token, body: { subject: "Second" } })
      const drafts = yield* call("GET", `${base}?status=draft`, { token: w.bob.token })
      expect(drafts.body.items.map((c: { number: number }) => c.number)).toEqual([2])
      const all = yield* call("GET", base, { token: w.bob.token })
      expect(all.body.items.map((c: { number: number }) => c.number)).toEqual([2, 1])
      expect((yield* call("GET", `${base}/99`, { token: w.bob.token })).status).toBe(404)
      yield* call("PATCH", `/v1/spaces/${space.body.id}`, { token: w.alice.token, body: { editMode: "locked" } })
      expect((yield* call("POST", `${base}/2/merge`, { token: w.alice.token })).status).toBe(409)
      for (
        const [method, path] of [["GET", base], ["POST", base], ["GET", `${base}/2`], ["PATCH", `${base}/2`], ["POST", `${base}/2/merge`], [
          "GET",
          `${base}/2/content`
        ]] as const
      ) {
        expect([path, (yield* call(method, path, { body: {} })).status]).toEqual([path, 401])
        expect([path, (yield* call(method, path, { token: w.carol.token, body: {} })).status]).toEqual([path, 404])
        expect([path, (yield* call(method, path, { token: w.guest.token, body: {} })).status]).toEqual([path, 404])
      }
      yield* call("PATCH", `/v1/orgs/${w.organizationId}/members/${w.bob.id}`, { token: w.alice.token, body: { role: "comment" } })
      expect((yield* call("POST", base, { token: w.bob.token, body: {} })).status).toBe(403)
    }))
})
