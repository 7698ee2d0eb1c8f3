import { MemoryStorage } from "@octavo/adapters-memory"
import { commitFiles, startGitServer } from "@octavo/adapters-node/gitServer"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as path from "node:path"
import { type PageObject, RevisionObject } from "../../src/content/Wire.js"
import { bodyAs, call, testServer } from "../harness.js"
import { linksIn, publishedSite, web } from "../readerWeb.js"
import { world } from "../scenario.js"
import { settled } from "./settled.js"
import { flatten, readTree } from "./tree.js"

// A repository as GitBook's editor writes one (the project's own fixture, written from GitBook's documented format):
// front matter with keys Octavo does not model and folded YAML, SUMMARY.md with group anchors, a navigation label, a
// `***` separator, entries that point into a page, a fenced `builtin:openapi` entry and an external link, links
// spelled with percent-escapes and angle brackets, escaped titles, and files that are not pages (CONTRIBUTING.md,
// unlisted markdown, LICENSE). Octavo must write back exactly what its users changed, and nothing else.
const fixtureRoot = path.join(import.meta.dirname, "as-gitbook-writes")
layer(testServer(MemoryStorage, { fetch: { allow: ["loopback"] } }), { excludeTestServices: true, timeout: 120_000 })(
  "Git Sync: an export changes exactly what was edited",
  (it) => {
    it.scoped("import then export with no edit is no commit; an edit changes its file alone; a deletion deletes only its own file", () =>
      Effect.gen(function*() {
        const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
        const fixture = readTree(fixtureRoot)
        server.create("harbor")
        const head = commitFiles(server, "harbor", fixture, "Docs as GitBook writes them")
        const w = yield* world
        const token = w.alice.token
        const spaceId = (yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token, body: { title: "Harbor" } })).body.id as string
        const remote = { url: server.url("harbor"), ref: "refs/heads/main" }
        const content = () => Effect.map(call("GET", `/v1/spaces/${spaceId}/content`, { token }), (r) => bodyAs(RevisionObject, r))
        const exportNow = (commitMessage: string) =>
          Effect.gen(function*() {
            expect((yield* call("POST", `/v1/spaces/${spaceId}/git/export`, { token, body: { ...remote, commitMessage } })).status).toBe(
              204
            )
            const info = yield* settled(spaceId, token)
            expect(info.operation, JSON.stringify(info)).toMatchObject({ state: "success" })
            return server.git("harbor", ["rev-parse", "main"]).trim()
          })
        const changedIn = (commit: string) =>
          server.git("harbor", ["diff", "--name-status", `${commit}~1`, commit]).trim().split("\n").filter((l) => l !== "")

        expect((yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { token, body: remote })).status).toBe(204)
        expect((yield* settled(spaceId, token)).operation).toMatchObject({ state: "success", commit: head })
        const imported = yield* content()
        const all = flatten(imported.pages)
        // Each file is one page; entries into a page are links to it; the fenced OpenAPI entry is no page.
        expect(all.map((p) => [p.type, p.title])).toEqual([
          ["document", "Harbor docs"],
          ["link", "What's new"],
          ["group", "Getting started"],
          ["document", "Quickstart"],
          ["document", "Install the agent"],
          ["document", "The init() call"],
          ["group", "Writing"],
          ["document", "Formatting"],
          ["document", "Inline content"],
          ["link", "Buttons"],
          ["link", "Icons"],
          ["document", "Tables and cards"],
          ["group", "Reference"],
          ["document", "API"],
          ["document", "Errors"]
        ])
        const inline = all.find((p) => p.title === "Inline content")
        expect(all.find((p) => p.title === "Buttons")?.target).toEqual({ kind: "anchor", anchor: "buttons", page: inline?.id })

        // Published: the sidebar's entries into a page lead to its anchors; `.gitbook.yaml`'s redirects answer 301.
        yield* publishedSite(w.organizationId, w.alice, [spaceId], { basename: "harbor" })
        const site = `/sites/${w.organizationId}/harbor`
        const home = yield* web(site)
        expect(home.status).toBe(200)
        expect(linksIn(home.text, "<nav class=\"pages\"")).toContain("https://harbor.example/changelog")
        const opened = yield* web(`${site}/${inline?.path}`)
        expect(opened.status).toBe(200)
        const sidebar = linksIn(opened.text, "<nav class=\"pages\"")
        expect(sidebar).toContain(`${site}/writing/formatting/inline#buttons`)
        expect(sidebar).toContain(`${site}/writing/formatting/inline#icons`)
        // SUMMARY.md's navigation label is what the sidebar shows for its page; the page keeps its title.
        expect(opened.text).toContain(`<a href="${site}/getting-started/install">Install</a>`)
        expect(all.find((p) => p.path === "getting-started/install")?.title).toBe("Install the agent")
        expect(sidebar).toContain("https://harbor.example/changelog")
        const moved = yield* web(`${site}/start`)
        expect([moved.status, moved.headers["location"]]).toEqual([301, `${site}/getting-started/quickstart`])

        // Exported onto its own branch with nothing edited: the same tree, so no commit.
        expect(yield* exportNow("Nothing changed")).toBe(head)

        // One page edited: that file alone changes, its unknown front matter and folded description kept.
        const quickstart = all.find((p) => p.title === "Quickstart") as PageObject
        const edited = (quickstart.markdown ?? "").replace("Run `harbor up`.", "Run `harbor up --detach`.")
        expect(edited).not.toBe(quickstart.markdown)
        const edit = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
          token,
          body: { changes: [{ operation: "update_page", page: quickstart.id, document: { markdown: edited } }] }
        })
        expect(edit.status, JSON.stringify(edit.body)).toBe(200)
        const afterEdit = yield* exportNow("Detach")
        expect(afterEdit).not.toBe(head)
        expect(changedIn(afterEdit)).toEqual(["M\tgetting-started/quickstart.md"])
        const before = new TextDecoder().decode(fixture.get("getting-started/quickstart.md"))
        expect(server.git("harbor", ["show", "main:getting-started/quickstart.md"])).toBe(
          before.replace("Run `harbor up`.", "Run `harbor up --detach`.")
        )

        // A page renamed: its title heading and its SUMMARY.md entry change, every other line stays.
        const init = all.find((p) => p.title === "The init() call") as PageObject
        yield* call("POST", `/v1/spaces/${spaceId}/content`, {
          token,
          body: { changes: [{ operation: "update_page", page: init.id, title: "Calling init()" }] }
        })
        const afterRename = yield* exportNow("Rename")
        expect(changedIn(afterRename)).toEqual(["M\tSUMMARY.md", "M\tgetting-started/init-call.md"])
        const summaryBefore = new TextDecoder().decode(fixture.get("SUMMARY.md"))
        expect(server.git("harbor", ["show", "main:SUMMARY.md"])).toBe(
          summaryBefore.replace("* [The init\\(\\) call](getting-started/init-call.md)", "* [Calling init()](getting-started/init-call.md)")
        )
        expect(server.git("harbor", ["show", "main:getting-started/init-call.md"]).split("\n").slice(1).join("\n")).toBe(
          new TextDecoder().decode(fixture.get("getting-started/init-call.md")).split("\n").slice(1).join("\n")
        )

        // A page written again whole, as an editor writes it (other emphasis markers), with one sentence changed: in
        // the file, only that block changes.
        const rewritten = (inline?.markdown ?? "").replace("_italic_", "*italic*").replace("marks a port.", "marks a harbour.")
        expect(
          (yield* call("POST", `/v1/spaces/${spaceId}/content`, {
            token,
            body: { changes: [{ operation: "update_page", page: inline?.id, document: { markdown: rewritten } }] }
          })).status
        ).toBe(200)
        const afterRewrite = yield* exportNow("Harbour")
        expect(changedIn(afterRewrite)).toEqual(["M\tformatting/inline.md"])
        expect(server.git("harbor", ["show", "main:formatting/inline.md"])).toBe(
          new TextDecoder().decode(fixture.get("formatting/inline.md")).replace("marks a port.", "marks a harbour.")
        )

        // A page deleted: its own file goes, and SUMMARY.md loses its entry; files Octavo does not own stay.
        const tables = all.find((p) => p.title === "Tables and cards") as PageObject
        yield* call("POST", `/v1/spaces/${spaceId}/content`, {
          token,
          body: { changes: [{ operation: "delete_page", page: tables.id }] }
        })
        const afterDelete = yield* exportNow("Delete")
        expect(changedIn(afterDelete)).toEqual(["M\tSUMMARY.md", "D\tformatting/tables.md"])
        const files = server.git("harbor", ["ls-tree", "-r", "--name-only", "main"]).trim().split("\n")
        for (const kept of ["CONTRIBUTING.md", "LICENSE", "notes/unlisted.md", ".gitbook.yaml"]) expect(files).toContain(kept)
        // Exported to a new branch: GitBook's configuration spelled out, with the redirects the import read.
        expect(
          (yield* call("POST", `/v1/spaces/${spaceId}/git/export`, {
            token,
            body: { ...remote, ref: "refs/heads/fresh", commitMessage: "Fresh" }
          })).status
        ).toBe(204)
        expect((yield* settled(spaceId, token)).operation.state).toBe("success")
        expect(server.git("harbor", ["show", "fresh:.gitbook.yaml"])).toBe(
          "root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  start: getting-started/quickstart.md\n  guides/setup: getting-started/install.md\n"
        )
        // Imported again, the branch gives the same content back.
        expect((yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { token, body: { ...remote, force: true } })).status).toBe(204)
        expect((yield* settled(spaceId, token)).operation.state).toBe("success")
        expect(flatten((yield* content()).pages).map((p) => p.title)).toEqual(
          all.filter((p) => p.id !== tables.id).map((p) => p.id === init.id ? "Calling init()" : p.title)
        )
        // A page renamed in Octavo shows its new title in the sidebar: the label named it as it was.
        const install = all.find((p) => p.path === "getting-started/install") as PageObject
        expect(
          (yield* call("POST", `/v1/spaces/${spaceId}/content`, {
            token,
            body: { changes: [{ operation: "update_page", page: install.id, title: "Set up the agent" }] }
          })).status
        ).toBe(200)
        expect((yield* web(`${site}/getting-started/install`)).text).toContain(
          `<a href="${site}/getting-started/install" aria-current="page">Set up the agent</a>`
        )
      }))
  }
)
