import type { ContentType, MemberRole } from "@gitbook/api/client"
import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testServer } from "./harness.js"
import { clientFor } from "./officialClient.js"
import { newUser } from "./scenario.js"

// The whole authoring flow through GitBook's own client (`@gitbook/api`), as an existing GitBook
// integration would run it against Octavo: every request and answer is the client's.

const png = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR4nGP4z8DwH4QZYAwAR8oH+Rq28akAAAAASUVORK5CYII="),
  (c) => c.charCodeAt(0)
)
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

layer(testServer(MemoryStorage), { excludeTestServices: true })("GitBook's official client", (it) => {
  it.effect("authors nested pages and files in a change request, merges, and reads everything back", () =>
    Effect.gen(function*() {
      const alice = yield* newUser("Alice Author")
      const client = yield* clientFor(alice.token)
      const run = <A>(request: () => Promise<A>) => Effect.promise(request)

      const organization = yield* run(() =>
        client.request<{ id: string }>({
          path: "/orgs",
          method: "POST",
          body: { title: "Acme" },
          type: "application/json" as ContentType,
          format: "json",
          secure: true
        })
      )
      const organizationId = organization.data.id
      const space = (yield* run(() => client.orgs.createSpace(organizationId, { title: "Handbook" }))).data
      expect(space).toMatchObject({ object: "space", title: "Handbook" })

      const cr = (yield* run(() => client.spaces.createChangeRequest(space.id, { subject: "First pages" }))).data
      expect(cr).toMatchObject({ object: "change-request", status: "draft", subject: "First pages" })

      // Nested pages and a file, written with GitBook's `operation` changes; refs link them whatever the order.
      const written = (yield* run(() =>
        client.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [
            {
              operation: "insert_page",
              ref: "install",
              title: "Installation",
              document: { markdown: "Run the installer. Back to [the guide](./guide.md) and see ![the diagram](./diagram).\n" }
            },
            {
              operation: "insert_page",
              ref: "guide",
              title: "Getting started",
              slug: "getting-started",
              document: { markdown: "Start with [installation](./install.md).\n\n## Next steps\n\nRead on.\n" }
            },
            { operation: "insert_files", files: [{ ref: "diagram", name: "diagram.png", contentType: "image/png", base64: base64(png) }] }
          ]
        }, { compat: false })
      )).data
      if (!("changes" in written)) throw new Error("compat=false answers the changes")
      expect(written.changeRequest.id).toBe(cr.id)
      expect(written.changes.map((c) => c.object)).toEqual(["created_page", "created_page"])
      const [install, guide] = written.changes
      if (install?.object !== "created_page" || guide?.object !== "created_page") throw new Error("two pages were created")
      expect([install.ref, guide.ref]).toEqual(["install", "guide"])
      const fileId = written.insertedFiles?.[0]?.id
      expect(written.insertedFiles?.[0]).toMatchObject({ name: "diagram.png", contentType: "image/png", size: png.length })

      // Nest the installation page under the guide, then merge.
      const moved = (yield* run(() =>
        client.spaces.updateChangeRequestContent(space.id, cr.id, {
          changes: [{ operation: "update_page", page: install.page.id, into: guide.page.id, at: 0 }]
        })
      )).data
      expect(moved).toMatchObject({ object: "change-request", id: cr.id })

      const inChangeRequest = (yield* run(() =>
        client.spaces.getPageInChangeRequestByPath(space.id, cr.id, "getting-started/installation")
      ))
        .data
      expect(inChangeRequest).toMatchObject({ id: install.page.id, path: "getting-started/installation" })
      expect(yield* run(() => client.spaces.mergeChangeRequest(space.id, cr.id))).toMatchObject({ data: { result: "merge" } })

      // The space reads back: nested path, stored links resolved to ids, the file.
      const page = (yield* run(() => client.spaces.getPageByPath(space.id, "getting-started/installation"))).data
      expect(page).toMatchObject({ id: install.page.id, title: "Installation", path: "getting-started/installation" })
      if (!("markdown" in page)) throw new Error("a document page answers its markdown")
      expect(page.markdown).toContain(`[the guide](/pages/${guide.page.id})`)
      expect(page.markdown).toContain(`![the diagram](/files/${fileId})`)
      const asDocument = (yield* run(() => client.spaces.getPageById(space.id, guide.page.id, { format: "document" }))).data
      expect(asDocument).toMatchObject({ document: { object: "document" } })
      const files = (yield* run(() => client.spaces.listFiles(space.id))).data
      expect(files.items.map((f) => f.id)).toEqual([fileId])

      const links = yield* run(() =>
        client.request<{ items: ReadonlyArray<{ status: string; targetReference: unknown }> }>({
          path: `/spaces/${space.id}/links`,
          method: "GET",
          format: "json",
          secure: true
        })
      )
      expect(links.data.items.map((l) => l.status)).toEqual(["ok", "ok", "ok"])
      const backlinks = yield* run(() =>
        client.request<{ items: ReadonlyArray<{ page: { id: string } }> }>({
          path: `/spaces/${space.id}/content/files/${fileId}/backlinks`,
          method: "GET",
          format: "json",
          secure: true
        })
      )
      expect(backlinks.data.items.map((b) => b.page.id)).toEqual([install.page.id])

      const search = (yield* run(() => client.spaces.searchSpaceContent(space.id, { query: "installer" }))).data
      // Both pages speak of installing; the one with it in its title comes first.
      expect(search.items.map((hit) => hit.id)).toEqual([install.page.id, guide.page.id])

      // Invites: an address with no account counts in `invited`.
      const invited = (yield* run(() =>
        client.orgs.inviteUsersToOrganization(organizationId, { emails: ["new.person@example.com"], role: "read" as MemberRole })
      ))
        .data
      expect(invited).toMatchObject({ users: [], invited: 1 })
    }))
})
