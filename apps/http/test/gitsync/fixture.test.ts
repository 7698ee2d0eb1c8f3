import { MemoryStorage } from "@octavo/adapters-memory"
import { commitFiles, startGitServer } from "@octavo/adapters-node/gitServer"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as path from "node:path"
import { type PageObject, RevisionObject } from "../../src/content/Wire.js"
import { bodyAs, call, testServer } from "../harness.js"
import { world } from "../scenario.js"
import { settled } from "./settled.js"
import { flatten, readTree } from "./tree.js"

// A repository in GitBook's layout (50 pages, groups, nesting, links, assets, includes, front matter,
// every block kind), imported over HTTP and exported back: the same bytes, so no new commit.
const fixtureRoot = path.join(import.meta.dirname, "fixture")
layer(testServer(MemoryStorage, { fetch: { allow: ["loopback"] } }), { excludeTestServices: true, timeout: 120_000 })(
  "Git Sync: a real-world shaped repository",
  (it) => {
    it.scoped("imports 50 pages with assets and includes, and exports them back byte for byte", () =>
      Effect.gen(function*() {
        const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
        const fixture = readTree(fixtureRoot)
        server.create("acme")
        const head = commitFiles(server, "acme", fixture, "Docs as GitBook writes them")
        const w = yield* world
        const spaceId = (yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token, body: { title: "Acme" } })).body
          .id as string
        const remote = { url: server.url("acme"), ref: "refs/heads/main" }
        expect((yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { token: w.alice.token, body: remote })).status).toBe(204)
        const imported = yield* settled(spaceId, w.alice.token)
        expect(imported.operation).toMatchObject({ state: "success", commit: head })
        const content = bodyAs(RevisionObject, yield* call("GET", `/v1/spaces/${spaceId}/content`, { token: w.alice.token }))
        const all = flatten(content.pages)
        expect(all.filter((p) => p.type === "document").length).toBe(50)
        expect(content.pages.map((p) => [p.type, p.title])).toEqual([
          ["document", "Acme Platform"],
          ["document", "Changelog"],
          ["link", "Status page"],
          ["group", "Getting started"],
          ["group", "Guides"],
          ["group", "API reference"],
          ["group", "Resources"]
        ])
        expect(content.files.map((f) => f.name).sort()).toEqual([
          "Screenshot 2024-03-01.png",
          "architecture.png",
          "beta-warning.md",
          "flow.svg",
          "logo.png",
          "support-note.md"
        ])
        const home = content.pages[0] as PageObject
        expect(home).toMatchObject({ description: "Documentation for the Acme platform.", layout: { title: true, description: false } })
        const architecture = content.files.find((f) => f.name === "architecture.png")
        expect(architecture?.dimensions).toEqual({ width: 32, height: 20 })
        expect(home.markdown).toContain(`src="/files/${architecture?.id}"`)
        expect(home.markdown).toContain("{% include \".gitbook/includes/support-note.md\" %}")
        const limits = all.find((p) => p.title === "Deploying limits")
        expect(limits).toMatchObject({ hidden: true, path: "guides/deploying/deploying-limits" })
        expect(all.find((p) => p.title === "Legal")?.noIndex).toBe(true)
        const concepts = all.find((p) => p.title === "Core concepts")
        expect(all.find((p) => p.title === "Linux")?.markdown).toContain(`[the concepts](/pages/${concepts?.id})`)

        // Exported on top of the same commit: the tree is the same, so there is no commit.
        yield* call("POST", `/v1/spaces/${spaceId}/git/export`, {
          token: w.alice.token,
          body: { ...remote, commitMessage: "Back", force: true }
        })
        const back = yield* settled(spaceId, w.alice.token)
        expect(back.operation.state).toBe("success")
        expect(server.git("acme", ["rev-parse", "main"]).trim()).toBe(head)
        // Exported to a new branch: every file Octavo writes, byte for byte.
        yield* call("POST", `/v1/spaces/${spaceId}/git/export`, {
          token: w.alice.token,
          body: { ...remote, ref: "refs/heads/copy", commitMessage: "Copy" }
        })
        expect((yield* settled(spaceId, w.alice.token)).operation.state).toBe("success")
        const written = server.git("acme", ["ls-tree", "-r", "--name-only", "copy"]).trim().split("\n").sort()
        const expected = Array.from(fixture.keys()).filter((p) => p !== "CONTRIBUTING.txt").sort()
        expect(written).toEqual(expected)
        // A new branch gets GitBook's configuration spelled out.
        expect(server.git("acme", ["show", "copy:.gitbook.yaml"])).toBe(
          "root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n"
        )
        for (const file of expected.filter((p) => p !== ".gitbook.yaml")) {
          const blob = server.git("acme", ["rev-parse", `copy:${file}`]).trim()
          expect(blob, file).toBe(server.git("acme", ["rev-parse", `main:${file}`]).trim())
        }
      }))
  }
)
