import { MemoryStorage } from "@octavo/adapters-memory"
import { PgliteClient, PgServerClientInFreshSchema, PgStorage } from "@octavo/adapters-pg"
import type { StoragePorts } from "@octavo/domain"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { call, testServer } from "./harness.js"
import { world } from "./scenario.js"
import { png, testSite } from "./site.js"

// GitBook's content changes, end to end on one storage: `operation`, batch refs, files by URL,
// revert_page, the link forms GitBook resolves, link status and file backlinks.
const contentChanges = (storage: Layer.Layer<StoragePorts, unknown>) =>
  Effect.gen(function*() {
    const site = yield* testSite
    const w = yield* world
    const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Handbook" } })
    const spaceId = space.body.id as string
    const cr = yield* call("POST", `/v1/spaces/${spaceId}/change-requests`, { token: w.bob.token, body: { subject: "Pages" } })
    const edit = (changes: ReadonlyArray<unknown>, compat = false) =>
      call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content${compat ? "" : "?compat=false"}`, {
        token: w.bob.token,
        body: { changes }
      })
    const pageAt = (path: string) =>
      call("GET", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/path/${path}`, { token: w.bob.token })
    const crContent = () => call("GET", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { token: w.bob.token })

    // `type` is Octavo's old name: refused, naming GitBook's discriminator; nothing is written.
    const before = (yield* crContent()).body.id
    const old = yield* edit([{ type: "insert_page", title: "Old" }])
    expect(old.status).toBe(400)
    expect(old.body.error.message).toMatch(/changes\.0\.operation/)

    // Refs: a page links to a page and a file inserted later in the same batch.
    const first = yield* edit([
      { operation: "insert_page", ref: "intro", title: "Intro", document: { markdown: "See [setup](./setup.md) and ![logo](./logo).\n" } },
      {
        operation: "insert_page",
        ref: "setup",
        title: "Setup",
        document: { markdown: "Back to [intro](./intro).\n\n## Steps\n\nDo it.\n" }
      },
      { operation: "insert_files", files: [{ ref: "logo", name: "logo.png", url: `${site.origin}/docs/img/diagram.png` }] }
    ])
    expect(first.status).toBe(200)
    expect(first.body.changes.map((c: { object: string; ref: string }) => [c.object, c.ref])).toEqual([
      ["created_page", "intro"],
      ["created_page", "setup"]
    ])
    const [intro, setup] = first.body.changes.map((c: { page: { id: string } }) => c.page.id) as [string, string]
    const logo = first.body.insertedFiles[0]
    expect(logo).toMatchObject({ name: "logo.png", contentType: "image/png", size: png.length })
    const introPage = yield* pageAt("intro")
    expect(introPage.body.markdown).toBe(`See [setup](/pages/${setup}) and ![logo](/files/${logo.id}).\n`)
    expect((yield* pageAt("setup")).body.markdown).toContain(`[intro](/pages/${intro})`)

    // A URL that fails or is refused is a 400 naming the file; the batch writes nothing.
    const revisionBefore = (yield* crContent()).body.id
    expect(revisionBefore).not.toBe(before)
    for (const url of [`${site.origin}/missing.png`, "http://169.254.169.254/latest/meta-data/"]) {
      const failed = yield* edit([
        { operation: "insert_page", title: "Never" },
        { operation: "insert_files", files: [{ name: "x.png", url }] }
      ])
      expect([url, failed.status]).toEqual([url, 400])
      expect(failed.body.error.message).toMatch(/^changes\.1\.files\.0\.url: /)
    }
    const both = yield* edit([{ operation: "insert_files", files: [{ name: "x.png", url: `${site.origin}/a.png`, base64: "AA==" }] }])
    expect(both.status).toBe(400)
    expect((yield* crContent()).body.id).toBe(revisionBefore)

    // Every link form GitBook resolves, against the tree the batch produces; unknown internal links become text.
    const forms = yield* edit([
      { operation: "update_page", page: setup, into: intro },
      {
        operation: "insert_page",
        title: "Links",
        into: intro,
        document: {
          markdown: [
            `[by id](/pages/${setup}#steps)`,
            "[by path](/pages/intro/setup)",
            "[md](/pages/intro/setup.md)",
            "[readme](/pages/intro/README.md)",
            "[first](/pages/README.md)",
            "[sibling](./setup.md)",
            "[up](../README.md)",
            "[folder](./setup)",
            `[file](/files/${logo.id})`,
            "[outside](https://example.com/x)",
            "[nowhere](./missing.md)"
          ].join("\n\n") + "\n"
        }
      }
    ])
    expect(forms.status).toBe(200)
    const links = (yield* pageAt("intro/links")).body.markdown as string
    expect(links.split("\n\n").map((line) => line.trim())).toEqual([
      `[by id](/pages/${setup}#steps)`,
      `[by path](/pages/${setup})`,
      `[md](/pages/${setup})`,
      `[readme](/pages/${intro})`,
      `[first](/pages/${intro})`,
      `[sibling](/pages/${setup})`,
      `[up](/pages/${intro})`,
      `[folder](/pages/${setup})`,
      `[file](/files/${logo.id})`,
      "[outside](https://example.com/x)",
      "nowhere"
    ])

    // revert_page: back to the change request's base (absent there: 400), or to a named revision.
    const notInBase = yield* edit([{ operation: "revert_page", page: setup }])
    expect(notInBase.status).toBe(400)
    expect(notInBase.body.error.message).toMatch(/^changes\.0\.page: /)
    const renamed = yield* edit([{ operation: "update_page", page: setup, title: "Set up", document: { markdown: "Changed.\n" } }])
    expect(renamed.status).toBe(200)
    const reverted = yield* edit([{ operation: "revert_page", page: setup, revision: revisionBefore }])
    expect(reverted.body.changes).toMatchObject([{ object: "updated_page", page: { id: setup } }])
    const back = yield* pageAt("intro/setup")
    expect(back.body).toMatchObject({ title: "Setup" })
    expect(back.body.markdown).toContain("## Steps")
    const foreign = yield* edit([{ operation: "revert_page", page: setup, revision: "not-a-revision" }])
    expect(foreign.status).toBe(400)

    const linksPage = (yield* pageAt("intro/links")).body.id as string

    // Merge; link status and backlinks follow the pages: a deleted page's links become broken.
    expect((yield* call("POST", `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`, { token: w.alice.token })).body.result).toBe(
      "merge"
    )
    // The merge revision names the change request it merged (found by its last revision, on every storage).
    const merged = yield* call("GET", `/v1/spaces/${spaceId}/content`, { token: w.bob.token })
    expect(merged.body).toMatchObject({ type: "merge", mergedFrom: { object: "change-request", id: cr.body.id, status: "merged" } })
    const backlinks = yield* call("GET", `/v1/spaces/${spaceId}/content/files/${logo.id}/backlinks`, { token: w.bob.token })
    // The page that shows the image and the one that links the file.
    expect(backlinks.body.items.map((b: { page: { id: string } }) => b.page.id).sort()).toEqual([intro, linksPage].sort())
    const statusOf = () =>
      Effect.map(
        call("GET", `/v1/spaces/${spaceId}/links`, { token: w.bob.token }),
        (answer) => ({ broken: answer.body.stats.broken.total, total: answer.body.stats.total })
      )
    const okBefore = yield* statusOf()
    expect(okBefore.broken).toBe(0)
    yield* call("POST", `/v1/spaces/${spaceId}/content`, {
      token: w.alice.token,
      body: { changes: [{ operation: "delete_page", page: setup }] }
    })
    const after = yield* statusOf()
    // Links to setup: one from intro and the by-id, by-path, md, sibling and folder ones.
    expect(after).toEqual({ total: okBefore.total - 1, broken: 6 })
    const broken = yield* call("GET", `/v1/spaces/${spaceId}/links?status=broken`, { token: w.bob.token })
    expect(broken.body.items.every((l: { targetReference: { kind: string; page: string } }) => l.targetReference.page === setup)).toBe(true)

    // Change requests created at once all get a number, each its own (numbers are taken under the space's lock).
    const created = yield* Effect.all(
      Array.from({ length: 20 }, (_, i) =>
        call("POST", `/v1/spaces/${spaceId}/change-requests`, { token: w.bob.token, body: { subject: `At once ${i}` } })),
      { concurrency: "unbounded" }
    )
    expect(created.map((answer) =>
      answer.status
    )).toEqual(Array.from({ length: 20 }, () => 201))
    expect(new Set(created.map((answer) => answer.body.number)).size).toBe(20)
  }).pipe(Effect.provide(testServer(storage, { fetch: { allow: ["loopback"] } })), Effect.scoped)

describe("GitBook content changes on every storage", () => {
  it.live("memory", () => contentChanges(MemoryStorage), 60_000)
  it.live("embedded PostgreSQL (PGlite)", () => contentChanges(PgStorage.pipe(Layer.provide(PgliteClient()))), 60_000)
  const url = process.env["OCTAVO_TEST_DATABASE_URL"]
  if (url !== undefined && url !== "") {
    it.live("PostgreSQL server", () => contentChanges(PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(url)))), 60_000)
  }
})

describe("GitBook content changes: edges", () => {
  it.live("groups, relative links from nested pages, restores, refused blocks, deep markdown, too many URLs", () =>
    Effect.gen(function*() {
      const w = yield* world
      const space = yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Edges" } })
      const spaceId = space.body.id as string
      const live = (changes: ReadonlyArray<unknown>) =>
        call("POST", `/v1/spaces/${spaceId}/content?compat=false`, { token: w.alice.token, body: { changes } })

      // A space that starts with a group: its first document is the first page; `..` from a nested
      // leaf reaches its parent's folder; a ref never hides a page at the same relative path.
      const made = yield* live([
        { operation: "insert_page", kind: "group", ref: "g", title: "Basics", slug: "basics" },
        { operation: "insert_page", title: "Welcome", slug: "welcome" }
      ])
      expect(made.status).toBe(200)
      expect(made.body).toMatchObject({
        revision: { object: "revision" },
        changes: [{ object: "created_page" }, { object: "created_page" }]
      })
      const [group, welcome] = made.body.changes.map((c: { page: { id: string } }) => c.page.id) as [string, string]
      yield* live([{ operation: "update_page", page: welcome, into: group }])
      const nested = yield* live([
        { operation: "insert_page", title: "Guides", slug: "guides", into: welcome },
        { operation: "insert_page", ref: "guides/install", title: "Install", slug: "install", into: welcome }
      ])
      const [guides, install] = nested.body.changes.map((c: { page: { id: string } }) => c.page.id) as [string, string]
      const deep = yield* live([{
        operation: "insert_page",
        title: "Deep",
        slug: "deep",
        into: guides,
        document: { markdown: "[first](/pages/README.md) [up](../README.md) [over](../install.md) [top](../../../../README.md)\n" }
      }])
      const deepId = deep.body.changes[0].page.id as string
      const read = yield* call("GET", `/v1/spaces/${spaceId}/content/page/${deepId}`, { token: w.alice.token })
      expect(read.body.markdown).toBe(
        `[first](/pages/${welcome}) [up](/pages/${welcome}) [over](/pages/${install}) [top](/pages/${welcome})\n`
      )

      // A page deleted and restored in one batch is updated, not deleted; restored later, it never shares a place.
      const both = yield* live([{ operation: "delete_page", page: install }, {
        operation: "revert_page",
        page: install,
        revision: nested.body.revision.id
      }])
      expect(both.body.changes).toEqual([
        expect.objectContaining({ object: "updated_page", page: expect.objectContaining({ id: install }) })
      ])
      const gone = yield* live([{ operation: "delete_page", page: install }])
      yield* live([{ operation: "insert_page", title: "Later", slug: "later", into: welcome }])
      const back = yield* live([{ operation: "revert_page", page: install, revision: nested.body.revision.id }])
      expect(back.body.changes).toMatchObject([{ object: "created_page", page: { id: install } }])
      const after = yield* live([{ operation: "insert_page", title: "Last", slug: "last", into: welcome, at: 2 }])
      expect(after.status).toBe(200)
      expect(gone.status).toBe(200)

      // What Octavo cannot do is refused, never half done.
      const block = yield* live([{ operation: "revert_page", page: install, block: ["b1"] }])
      expect([block.status, block.body.error.message]).toEqual([
        400,
        "changes.0.block: reverting single blocks is not supported: revert the whole page"
      ])
      const nestedTooDeep = yield* live([{ operation: "insert_page", title: "Quote", document: { markdown: "> ".repeat(20_000) + "x" } }])
      expect(nestedTooDeep.status).toBe(400)
      const noType = yield* live([{ operation: "insert_files", files: [{ name: "a.bin", base64: "AA==" }] }])
      expect(noType.body.error.message).toBe("changes.0.files.0.contentType: is required with base64")
      const urls = Array.from({ length: 2 }, () => ({
        operation: "insert_files",
        files: Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.png`, url: `https://example.com/${i}.png` }))
      }))
      const tooMany = yield* live(urls)
      expect([tooMany.status, tooMany.body.error.message]).toEqual([
        400,
        "changes: may insert at most 20 files by URL in one batch, got 22"
      ])
    }).pipe(Effect.provide(testServer(MemoryStorage)), Effect.scoped), 60_000)
})
