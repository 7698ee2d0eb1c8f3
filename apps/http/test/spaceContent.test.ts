import * as HttpClient from "@effect/platform/HttpClient"
import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { RevisionObject } from "../src/content/Wire.js"
import { call, PUBLIC_URL, testServer } from "./harness.js"
import { world } from "./scenario.js"

const png = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  0x49,
  0x48,
  0x44,
  0x52,
  0,
  0,
  0,
  4,
  0,
  0,
  0,
  3,
  8,
  6,
  0,
  0,
  0
])

const download = (url: string, token: string) =>
  Effect.gen(function*() {
    const response = yield* (yield* HttpClient.HttpClient).get(url.replace(PUBLIC_URL, ""), {
      headers: { authorization: `Bearer ${token}` }
    })
    return { status: response.status, type: response.headers["content-type"], bytes: new Uint8Array(yield* response.arrayBuffer) }
  }).pipe(Effect.scoped, Effect.orDie)

layer(testServer(MemoryStorage), { excludeTestServices: true })("space content over HTTP", (it) => {
  it.effect("live edits build nested pages and files; both formats read back; old revisions stay readable", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Docs" } })
      const spaceId = space.body.id as string
      const empty = yield* call("GET", `/v1/spaces/${spaceId}/content`, { token: w.bob.token })
      expect(empty.body).toMatchObject({ object: "revision", id: space.body.revision, pages: [], files: [] })
      const first = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token: w.bob.token,
        body: {
          changes: [
            { operation: "insert_page", document: { markdown: "# Guide\n\nSee [the API](https://example.com/api) and **more**." } },
            {
              operation: "insert_files",
              files: [{ name: "diagram.png", contentType: "image/png", base64: btoa(String.fromCharCode(...png)) }]
            }
          ]
        }
      })
      expect(first.status).toBe(200)
      const guide = first.body.pages[0]
      expect(guide).toMatchObject({
        object: "page",
        type: "document",
        title: "Guide",
        slug: "guide",
        path: "guide",
        markdown: "See [the API](https://example.com/api) and **more**."
      })
      const file = first.body.files[0]
      expect(file).toMatchObject({
        object: "file",
        name: "diagram.png",
        contentType: "image/png",
        size: png.length,
        dimensions: { width: 4, height: 3 }
      })
      const bytes = yield* download(file.downloadURL, w.bob.token)
      expect(bytes).toEqual({ status: 200, type: "image/png", bytes: png })

      const second = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token: w.bob.token,
        body: { changes: [{ operation: "insert_page", title: "Install", into: guide.id, document: { markdown: "Run it." } }] }
      })
      expect(second.body.parents).toEqual([first.body.id])
      expect(second.body.pages[0].pages[0]).toMatchObject({ title: "Install", path: "guide/install" })
      const byPath = yield* call("GET", `/v1/spaces/${spaceId}/content/path/${encodeURIComponent("guide/install")}`, { token: w.bob.token })
      expect(byPath.body).toMatchObject({ title: "Install", markdown: "Run it." })
      const asDocument = yield* call("GET", `/v1/spaces/${spaceId}/content/page/${guide.id}?format=document`, { token: w.bob.token })
      expect(asDocument.body.markdown).toBeUndefined()
      expect(asDocument.body.document.nodes[0].type).toBe("paragraph")
      expect(asDocument.body.pages.map((p: { title: string }) => p.title)).toEqual(["Install"])
      const pages = yield* call("GET", `/v1/spaces/${spaceId}/content/pages`, { token: w.bob.token })
      expect(pages.body.pages[0].pages[0].title).toBe("Install")
      const old = yield* call("GET", `/v1/spaces/${spaceId}/revisions/${first.body.id}`, { token: w.bob.token })
      expect(old.body.pages[0].pages).toEqual([])
      const files = yield* call("GET", `/v1/spaces/${spaceId}/content/files?limit=1`, { token: w.bob.token })
      expect(files.body).toMatchObject({ count: 1, items: [{ id: file.id }] })
      expect((yield* call("GET", `/v1/spaces/${spaceId}`, { token: w.bob.token })).body.revision).toBe(second.body.id)
      const copy = yield* call("POST", `/v1/spaces/${spaceId}/duplicate`, { token: w.alice.token })
      const copied = yield* call("GET", `/v1/spaces/${copy.body.id}/content`, { token: w.bob.token })
      expect(copied.body.parents).toEqual([second.body.id])
      expect(copied.body.pages[0]).toMatchObject({ id: guide.id, title: "Guide", pages: [{ title: "Install" }] })
      expect(copied.body.files.map((f: { name: string }) => f.name)).toEqual(["diagram.png"])
    }))

  it.effect("page trees are written from each page's kept encoding: answers follow every change, path and read option", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Tree" } })
      const spaceId = space.body.id as string
      const content = `/v1/spaces/${spaceId}/content`
      const built = yield* call("POST", content, {
        token: w.bob.token,
        body: {
          changes: [
            { operation: "insert_page", title: "Guide", slug: "guide", document: { markdown: "Top." }, ref: "guide" },
            { operation: "insert_page", title: "Other", slug: "other", document: { markdown: "Other page." } }
          ]
        }
      })
      const guide = built.body.pages[0].id as string
      yield* call("POST", content, {
        token: w.bob.token,
        body: { changes: [{ operation: "insert_page", title: "Intro", slug: "intro", into: guide, document: { markdown: "Say **hi**." } }] }
      })
      const roundTrip = (body: unknown) => Schema.encodeSync(RevisionObject)(Schema.decodeUnknownSync(RevisionObject)(body))
      const revision = yield* call("GET", content, { token: w.bob.token })
      expect(revision.status).toBe(200)
      expect(revision.headers["content-type"]).toBe("application/json")
      expect(roundTrip(revision.body)).toEqual(revision.body)
      const intro = revision.body.pages[0].pages[0]
      expect(intro).toMatchObject({ title: "Intro", path: "guide/intro", markdown: "Say **hi**.", pages: [] })
      expect(intro.urls.app).toBe(`${PUBLIC_URL}/s/${spaceId}/guide/intro`)
      expect(intro.document).toBeUndefined()

      // Another read option is written apart from the first, and the first still reads as before.
      const documents = yield* call("GET", `${content}/page/${guide}?format=document`, { token: w.bob.token })
      expect(documents.body.pages[0].markdown).toBeUndefined()
      expect(JSON.stringify(documents.body.pages[0].document)).toContain("hi")
      const withoutGit = yield* call("GET", `${content}/page/${guide}?metadata=false`, { token: w.bob.token })
      expect(withoutGit.body.pages[0]).toMatchObject({ markdown: "Say **hi**." })
      expect((yield* call("GET", `${content}/pages`, { token: w.bob.token })).body.pages[0].pages[0].markdown).toBe("Say **hi**.")

      // A new slug above a page moves it: its path and its URL follow, though the page itself is unchanged.
      yield* call("POST", content, { token: w.bob.token, body: { changes: [{ operation: "update_page", page: guide, slug: "handbook" }] } })
      const moved = (yield* call("GET", `${content}/pages`, { token: w.bob.token })).body.pages[0].pages[0]
      expect(moved).toMatchObject({ id: intro.id, path: "handbook/intro", urls: { app: `${PUBLIC_URL}/s/${spaceId}/handbook/intro` } })

      // An edit shows in every answer; the pages it did not touch read as before.
      const edited = yield* call("POST", `${content}?compat=false`, {
        token: w.bob.token,
        body: { changes: [{ operation: "update_page", page: intro.id, document: { markdown: "Say **bye**." } }] }
      })
      expect(edited.body).toMatchObject({ changes: [{ object: "updated_page", page: { id: intro.id } }], insertedFiles: [] })
      expect(roundTrip(edited.body.revision)).toEqual(edited.body.revision)
      expect(edited.body.revision.pages[0].pages[0].markdown).toBe("Say **bye**.")
      const page = yield* call("GET", `${content}/page/${guide}`, { token: w.bob.token })
      expect(page.body).toMatchObject({
        id: guide,
        path: "handbook",
        markdown: "Top.",
        pages: [{ path: "handbook/intro", markdown: "Say **bye**." }]
      })
      expect(edited.body.revision.pages[1]).toEqual(revision.body.pages[1])
      // An old revision reads as it was.
      const old = yield* call("GET", `/v1/spaces/${spaceId}/revisions/${revision.body.id}`, { token: w.bob.token })
      expect(old.body).toEqual(revision.body)
    }))

  it.effect("links: statuses, stats, filters, a page's links and a file's backlinks", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Docs" } })
      const spaceId = space.body.id as string
      const made = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token: w.alice.token,
        body: {
          changes: [
            {
              operation: "insert_files",
              files: [{ name: "chart.png", contentType: "image/png", base64: btoa(String.fromCharCode(...png)) }]
            },
            { operation: "insert_page", title: "Guide", slug: "guide" },
            {
              operation: "insert_page",
              title: "Install",
              slug: "install",
              document: {
                markdown: [
                  "See [the guide](guide.md), [nowhere](missing.md), [the app](https://docs.test/o/x),",
                  "[the web](https://example.com) and ![chart](.gitbook/assets/chart.png)."
                ].join(" ")
              }
            }
          ]
        }
      })
      const install = made.body.pages.find((p: { slug: string }) => p.slug === "install").id
      const guide = made.body.pages.find((p: { slug: string }) => p.slug === "guide").id
      const fileId = made.body.files[0].id
      // The link that leads nowhere became its text when written; the others are stored by id.
      const install_ = yield* call("GET", `/v1/spaces/${spaceId}/content/page/${install}`, { token: w.bob.token })
      expect(install_.body.markdown).toBe(
        `See [the guide](/pages/${guide}), nowhere, [the app](https://docs.test/o/x), [the web](https://example.com) and ![chart](/files/${fileId}).`
      )
      const all = yield* call("GET", `/v1/spaces/${spaceId}/links`, { token: w.bob.token })
      expect(all.status).toBe(200)
      expect(all.body.stats).toEqual({ total: 4, broken: { total: 0, changeRequest: 0 } })
      expect(all.body.items.map((l: { status: string }) => l.status)).toEqual(["ok", "in-app", "ok", "ok"])
      expect(all.body.items[0]).toEqual({
        status: "ok",
        relation: "reference",
        targetReference: { kind: "page", page: guide },
        locationReferences: [{ kind: "page", page: install }]
      })
      expect(all.body.items[3].targetReference).toEqual({ kind: "file", file: fileId })
      expect((yield* call("GET", `/v1/spaces/${spaceId}/links?status=lost`, { token: w.bob.token })).status).toBe(400)
      const paged = yield* call("GET", `/v1/spaces/${spaceId}/links?limit=2`, { token: w.bob.token })
      const rest = yield* call("GET", `/v1/spaces/${spaceId}/links?limit=10&page=${paged.body.next.page}`, { token: w.bob.token })
      expect(paged.body.items.length + rest.body.items.length).toBe(4)
      const guideLinks = yield* call("GET", `/v1/spaces/${spaceId}/content/page/${guide}/links`, { token: w.bob.token })
      expect(guideLinks.body).toMatchObject({ items: [], count: 0, stats: { total: 0 } })
      const backlinks = yield* call("GET", `/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`, { token: w.bob.token })
      expect(backlinks.body.items).toEqual([{
        kind: "page",
        organization: w.organizationId,
        space: spaceId,
        versionContext: { type: "revision", revision: made.body.id },
        page: { id: install, title: "Install", path: "install" },
        file: fileId
      }])
      // A link broken in an open change request (its page deleted there) shows in the space's stats.
      const cr = yield* call("POST", `/v1/spaces/${spaceId}/change-requests`, { token: w.alice.token, body: {} })
      yield* call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.body.number}/content`, {
        token: w.alice.token,
        body: { changes: [{ operation: "delete_page", page: guide }] }
      })
      yield* call("PATCH", `/v1/spaces/${spaceId}/change-requests/${cr.body.number}`, { token: w.alice.token, body: { status: "open" } })
      const withChangeRequest = yield* call("GET", `/v1/spaces/${spaceId}/links`, { token: w.bob.token })
      expect(withChangeRequest.body.stats.broken).toEqual({ total: 0, changeRequest: 1 })
      // Once the page is deleted in the space, the link to it is broken there too.
      yield* call("POST", `/v1/spaces/${spaceId}/content`, {
        token: w.alice.token,
        body: { changes: [{ operation: "delete_page", page: guide }] }
      })
      const broken = yield* call("GET", `/v1/spaces/${spaceId}/links?status=broken`, { token: w.bob.token })
      expect(broken.body).toMatchObject({ count: 1, stats: { total: 4, broken: { total: 1 } } })
      expect(broken.body.items[0].targetReference).toEqual({ kind: "page", page: guide })
      expect((yield* call("GET", `/v1/spaces/${spaceId}/links`, { token: w.carol.token })).status).toBe(404)
      expect((yield* call("GET", `/v1/spaces/${spaceId}/links`)).status).toBe(401)
    }))

  it.effect("an invalid change rejects the batch with nothing written; limits; locked spaces refuse edits", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Docs" } })
      const path = `/v1/spaces/${space.body.id}/content`
      const badBatch = yield* call("POST", path, {
        token: w.bob.token,
        body: { changes: [{ operation: "insert_page", title: "Ok" }, { operation: "update_page", page: "missing" }] }
      })
      expect(badBatch.status).toBe(400)
      expect(badBatch.body.error.message).toBe("changes.1.page: page missing is not in this revision")
      expect((yield* call("GET", path, { token: w.bob.token })).body.pages).toEqual([])
      const fifty = Array.from({ length: 50 }, (_, i) => ({ operation: "insert_page", title: `P${i}` }))
      expect((yield* call("POST", path, { token: w.bob.token, body: { changes: fifty } })).status).toBe(200)
      expect((yield* call("POST", path, { token: w.bob.token, body: { changes: [...fifty, fifty[0]] } })).status).toBe(400)
      expect((yield* call("POST", path, { token: w.bob.token, body: { changes: [] } })).status).toBe(400)
      const duplicate = yield* call("POST", path, { token: w.bob.token, body: { changes: [{ operation: "insert_page", title: "P0" }] } })
      expect(duplicate.status).toBe(409)
      expect(
        (yield* call("POST", path, { token: w.bob.token, body: { changes: [{ operation: "insert_page", slug: "Bad Slug" }] } })).status
      )
        .toBe(400)
      const nul = yield* call("POST", path, {
        token: w.bob.token,
        body: { changes: [{ operation: "insert_page", title: "Bad\u0000title" }] }
      })
      expect(nul.status).toBe(400)
      expect(nul.body.error.message).toContain("must not contain NUL characters")
      yield* call("PATCH", `/v1/spaces/${space.body.id}`, { token: w.alice.token, body: { editMode: "locked" } })
      const locked = yield* call("POST", path, { token: w.alice.token, body: { changes: [{ operation: "insert_page", title: "No" }] } })
      expect(locked.status).toBe(409)
    }))

  it.effect("content endpoints refuse 401, 404 across organizations, 403 to readers who would edit", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Docs" } })
      const edit = yield* call("POST", `/v1/spaces/${space.body.id}/content`, {
        token: w.alice.token,
        body: { changes: [{ operation: "insert_page", title: "A" }] }
      })
      const pageId = edit.body.pages[0].id
      const reads = [
        `/v1/spaces/${space.body.id}/content`,
        `/v1/spaces/${space.body.id}/content/pages`,
        `/v1/spaces/${space.body.id}/content/page/${pageId}`,
        `/v1/spaces/${space.body.id}/content/path/a`,
        `/v1/spaces/${space.body.id}/content/files`,
        `/v1/spaces/${space.body.id}/revisions/${edit.body.id}`
      ]
      for (const path of reads) {
        expect([path, (yield* call("GET", path)).status]).toEqual([path, 401])
        expect([path, (yield* call("GET", path, { token: w.carol.token })).status]).toEqual([path, 404])
        expect([path, (yield* call("GET", path, { token: w.guest.token })).status]).toEqual([path, 404])
        expect([path, (yield* call("GET", path, { token: w.bob.token })).status]).toEqual([path, 200])
      }
      const write = `/v1/spaces/${space.body.id}/content`
      const body = { changes: [{ operation: "insert_page", title: "B" }] }
      expect((yield* call("POST", write, { body })).status).toBe(401)
      expect((yield* call("POST", write, { token: w.carol.token, body })).status).toBe(404)
      yield* call("PATCH", `/v1/orgs/${w.organizationId}/members/${w.bob.id}`, { token: w.alice.token, body: { role: "comment" } })
      expect((yield* call("POST", write, { token: w.bob.token, body })).status).toBe(403)
      expect((yield* call("GET", `/v1/spaces/${space.body.id}/content/page/nope`, { token: w.alice.token })).status).toBe(404)
    }))
})
