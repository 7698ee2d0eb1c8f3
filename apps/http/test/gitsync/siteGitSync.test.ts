import { MemoryStorage } from "@octavo/adapters-memory"
import { commitFiles, startGitServer } from "@octavo/adapters-node/gitServer"
import { PgliteClient, PgStorage } from "@octavo/adapters-pg"
import type { StoragePorts } from "@octavo/domain"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import * as path from "node:path"
import { type PageObject, RevisionObject } from "../../src/content/Wire.js"
import { bodyAs, call, testServer } from "../harness.js"
import { world } from "../scenario.js"
import { flatten, readTree } from "./tree.js"

// Site-level Git Sync (issue 39): a repository laid out as GitBook's site Git Sync writes one (the project's own
// fixture, from GitBook's `GitSyncSiteConfig`): `docs.yaml` with sections, a section group, a draft group, an external
// link, localized titles, a hidden space, a space with no directory, two spaces reading one directory, and a directory
// from the repository's root; files that belong to no space (README.md, CONTRIBUTING.md).
const fixtureRoot = path.join(import.meta.dirname, "site-docs-yaml")

interface SectionItem {
  readonly id: string
  readonly title: string
  readonly path: string
  readonly default: boolean
  readonly icon?: string
  readonly description?: string
  readonly localizedTitle?: Record<string, string>
  readonly localizedDescription?: Record<string, string>
}
interface SiteSpaceItem {
  readonly id: string
  readonly path: string
  readonly hidden: boolean
  readonly localizedTitle?: Record<string, string>
  readonly space: { readonly id: string; readonly title: string; readonly language?: string }
}

/** Waits until the site's operation is no longer running; answers its git/info. */
const siteSettled = (infoPath: string, token: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 1200; i++) {
      const info = yield* call("GET", infoPath, { token })
      if (info.status === 200 && info.body.operation?.state !== "running") return info.body
      yield* Effect.sleep(Duration.millis(25))
    }
    throw new Error("the site's Git Sync operation did not finish")
  })

const suite = (name: string, storage: Layer.Layer<StoragePorts, unknown>) =>
  layer(testServer(storage, { fetch: { allow: ["loopback"] } }), { excludeTestServices: true, timeout: 180_000 })(name, (it) => {
    it.scoped("imports the site's structure and spaces; an untouched export changes nothing; edits change their own files", () =>
      Effect.gen(function*() {
        const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
        const fixture = readTree(fixtureRoot)
        server.create("harbor-site")
        const head = commitFiles(server, "harbor-site", fixture, "The Harbor site as GitBook writes it")
        const w = yield* world
        const token = w.alice.token
        const site = (yield* call("POST", `/v1/orgs/${w.organizationId}/sites`, { token, body: { title: "Empty site" } })).body
        const sitePath = `/v1/orgs/${w.organizationId}/sites/${site.id as string}`
        const remote = { url: server.url("harbor-site"), ref: "refs/heads/main" }
        const changedIn = (commit: string) =>
          server.git("harbor-site", ["diff", "--name-status", `${commit}~1`, commit]).trim().split("\n").filter((l) => l !== "")
        const headNow = () => server.git("harbor-site", ["rev-parse", "main"]).trim()

        // Import.
        const accepted = yield* call("POST", `${sitePath}/git/import`, { token, body: remote })
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(204)
        const imported = yield* siteSettled(`${sitePath}/git/info`, token)
        expect(imported.operation, JSON.stringify(imported)).toMatchObject({ state: "success", direction: "import" })
        expect(imported.commit).toBe(head)
        expect(imported.configPath).toBe("docs.yaml")
        // Three directories, three spaces imported (the two spaces reading ./guides are one).
        const spaceOps = Object.values(imported.operation.spaces as Record<string, { state: string }>)
        expect(spaceOps.map((o) => o.state)).toEqual(["success", "success", "success"])

        // The structure: sections in order, the group with its section, drafts and external links left out.
        const structure = (yield* call("GET", `${sitePath}/structure`, { token })).body
        expect(structure.type).toBe("sections")
        const sections = (yield* call("GET", `${sitePath}/sections`, { token })).body.items as Array<SectionItem>
        expect(sections.map((s) => [s.title, s.path, s.default, s.icon ?? null])).toEqual([
          ["Product", "product", true, "book-open"],
          ["Reference", "reference", false, "code"],
          ["Changelog", "changelog", false, null]
        ])
        expect(sections[0]!.description).toBe("Running Harbor in production")
        // Titles and descriptions in other languages, as the file gives them; none where it gives none.
        expect(sections.map((s) => [s.localizedTitle ?? null, s.localizedDescription ?? null])).toEqual([
          [{ en: "Product", fr: "Produit" }, null],
          [null, { fr: "L'API de Harbor, point par point" }],
          [null, null]
        ])
        const groups = (yield* call("GET", `${sitePath}/section-groups`, { token })).body.items as Array<
          { readonly title: string; readonly localizedTitle?: Record<string, string> }
        >
        expect(groups.map((g) => [g.title, g.localizedTitle])).toEqual([["Resources", { fr: "Ressources" }]])
        const siteSpaces = (yield* call("GET", `${sitePath}/site-spaces?limit=100`, { token })).body.items as Array<SiteSpaceItem>
        const bySpace = (title: string) => siteSpaces.filter((s) => s.space.title === title)
        expect(siteSpaces.map((s) => [s.path, s.space.title])).toEqual(expect.arrayContaining([
          ["guides", "Guides"],
          ["fr", "Français"],
          ["api", "API"],
          ["changelog", "Changelog"]
        ]))
        expect(siteSpaces).toHaveLength(5)
        // A space's localized title is its site space's; its content's language is the space's.
        expect(siteSpaces.filter((s) => s.localizedTitle !== undefined).map((s) => [s.path, s.localizedTitle])).toEqual([
          ["guides", { fr: "Guides (anglais)" }]
        ])
        expect(siteSpaces.map((s) => [s.path, s.space.language ?? null])).toEqual(expect.arrayContaining([
          ["guides", "en"],
          ["fr", "fr"],
          ["api", null]
        ]))
        // A hidden space is placed, left out of the navigation.
        expect(siteSpaces.filter((s) => s.hidden).map((s) => s.space.title)).toEqual(["API"])
        // Spaces that share a directory share content: one space, in two sections.
        expect(bySpace("Guides")).toHaveLength(2)
        expect(new Set(bySpace("Guides").map((s) => s.space.id)).size).toBe(1)
        const guidesId = bySpace("Guides")[0]!.space.id as string
        const pages = flatten(bodyAs(RevisionObject, yield* call("GET", `/v1/spaces/${guidesId}/content`, { token })).pages)
        expect(pages.map((p) => p.title)).toEqual(["Guides", "Setting up", "Install Harbor", "Configure the agent"])
        // A space with no directory is an empty space of the site.
        const french = bySpace("Français")[0]!.space.id as string
        expect(flatten(bodyAs(RevisionObject, yield* call("GET", `/v1/spaces/${french}/content`, { token })).pages)).toHaveLength(0)

        // Imported again, unchanged: the same site, nothing new.
        expect((yield* call("POST", `${sitePath}/git/import`, { token, body: remote })).status).toBe(204)
        expect((yield* siteSettled(`${sitePath}/git/info`, token)).operation.state).toBe("success")
        const again = (yield* call("GET", `${sitePath}/site-spaces?limit=100`, { token })).body.items as Array<SiteSpaceItem>
        expect(again.map((s) => s.id).sort()).toEqual(siteSpaces.map((s) => s.id).sort())

        // An untouched export: no commit at all.
        const exportNow = (commitMessage: string) =>
          Effect.gen(function*() {
            expect((yield* call("POST", `${sitePath}/git/export`, { token, body: { ...remote, commitMessage } })).status).toBe(204)
            const info = yield* siteSettled(`${sitePath}/git/info`, token)
            expect(info.operation, JSON.stringify(info)).toMatchObject({ state: "success", direction: "export" })
            return headNow()
          })
        expect(yield* exportNow("Nothing changed")).toBe(head)

        // A page edited: its file alone.
        const install = pages.find((p) => p.title === "Install Harbor") as PageObject
        const edit = yield* call("POST", `/v1/spaces/${guidesId}/content`, {
          token,
          body: {
            changes: [{
              operation: "update_page",
              page: install.id,
              document: { markdown: (install.markdown ?? "").replace("your `PATH`", "your `PATH` (or `/usr/local/bin`)") }
            }]
          }
        })
        expect(edit.status, JSON.stringify(edit.body)).toBe(200)
        const afterEdit = yield* exportNow("Install path")
        expect(changedIn(afterEdit)).toEqual(["M\tguides/setup/install.md"])
        expect(afterEdit).not.toBe(head)

        // A section renamed: docs.yaml alone, that line alone; comments, folded text and drafts stay.
        const reference = sections[1]!
        expect((yield* call("PATCH", `${sitePath}/sections/${reference.id as string}`, { token, body: { title: "API reference" } })).status)
          .toBe(200)
        const afterRename = yield* exportNow("Rename the reference")
        expect(changedIn(afterRename)).toEqual(["M\tdocs.yaml"])
        const before = new TextDecoder().decode(fixture.get("docs.yaml"))
        expect(server.git("harbor-site", ["show", "main:docs.yaml"])).toBe(before.replace("title: Reference\n", "title: API reference\n"))
        // A localized title added in Octavo and a space's language set: their lines alone, above the node's children.
        const api = siteSpaces.find((s) => s.path === "api")!
        const localized = yield* call("PATCH", `${sitePath}/sections/${reference.id as string}`, {
          token,
          body: { localizedTitle: { fr: "Référence de l'API", ja: "API リファレンス" } }
        })
        expect(localized.status, JSON.stringify(localized.body)).toBe(200)
        expect(localized.body.localizedTitle).toEqual({ fr: "Référence de l'API", ja: "API リファレンス" })
        expect((yield* call("PATCH", `/v1/spaces/${api.space.id}`, { token, body: { language: "ja" } })).body.language).toBe("ja")
        const afterLocalized = yield* exportNow("Localize the reference")
        expect(changedIn(afterLocalized)).toEqual(["M\tdocs.yaml"])
        expect(server.git("harbor-site", ["show", "main:docs.yaml"])).toBe(
          before.replace("title: Reference\n", "title: API reference\n")
            .replace(
              "      icon: code\n",
              "      icon: code\n      localizedTitle:\n        fr: Référence de l'API\n        ja: API リファレンス\n"
            )
            .replace("            directory: ./api\n", "            directory: ./api\n            language: ja\n")
        )
        // Files of no space are never touched.
        expect(server.git("harbor-site", ["show", "main:CONTRIBUTING.md"])).toBe(new TextDecoder().decode(fixture.get("CONTRIBUTING.md")))
      }))

    it.scoped("a configuration that breaks a rule fails the import, naming the node, and changes nothing", () =>
      Effect.gen(function*() {
        const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
        const w = yield* world
        const token = w.alice.token
        const site = (yield* call("POST", `/v1/orgs/${w.organizationId}/sites`, { token, body: { title: "Untouched" } })).body
        const sitePath = `/v1/orgs/${w.organizationId}/sites/${site.id as string}`
        const cases: Array<[string, string]> = [
          [
            "site:\n  title: Twice\n  structure:\n    - type: space\n      key: a\n      title: A\n      path: a\n      default: true\n      content:\n        directory: ./a\n    - type: space\n      key: a\n      title: B\n      path: b\n      content:\n        directory: ./b\n",
            "the key a is used by more than one node"
          ],
          [
            "site:\n  title: No default\n  structure:\n    - type: space\n      key: a\n      title: A\n      path: a\n      content:\n        directory: ./a\n",
            "the site marks 0 spaces default: true"
          ],
          [
            "site:\n  title: Escapes\n  structure:\n    - type: space\n      key: a\n      title: A\n      path: a\n      default: true\n      content:\n        directory: ../elsewhere\n",
            "node a: site.structure.0.content.directory"
          ],
          [
            "site:\n  title: Unknown\n  structure:\n    - type: space\n      key: a\n      title: A\n      path: a\n      default: true\n      colour: red\n      content:\n        directory: ./a\n",
            "node a: site.structure.0.colour"
          ],
          ["site: [unclosed", "is not valid YAML"]
        ]
        for (const [i, [text, message]] of cases.entries()) {
          const name = `broken-${i}`
          server.create(name)
          commitFiles(server, name, new Map([["docs.yaml", new TextEncoder().encode(text)]]), "Broken")
          const remote = { url: server.url(name), ref: "refs/heads/main" }
          expect((yield* call("POST", `${sitePath}/git/import`, { token, body: remote })).status).toBe(204)
          const info = yield* siteSettled(`${sitePath}/git/info`, token)
          expect(info.operation.state).toBe("failure")
          expect(info.operation.error).toContain(message)
        }
        const siteSpaces = (yield* call("GET", `${sitePath}/site-spaces`, { token })).body.items as Array<unknown>
        expect(siteSpaces).toHaveLength(0)
        const title = (yield* call("GET", sitePath, { token })).body.title
        expect(title).toBe("Untouched")
      }))

    it.scoped("a site exported into an empty repository writes docs.yaml and each space's directory, and imports back", () =>
      Effect.gen(function*() {
        const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
        const w = yield* world
        const token = w.alice.token
        const space = (yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token, body: { title: "Handbook" } })).body
        yield* call("POST", `/v1/spaces/${space.id as string}/content`, {
          token,
          body: { changes: [{ operation: "insert_page", page: { type: "document", title: "Welcome", document: { markdown: "Hello." } } }] }
        })
        const site =
          (yield* call("POST", `/v1/orgs/${w.organizationId}/sites`, { token, body: { title: "Handbook site", spaces: [space.id] } }))
            .body
        const sitePath = `/v1/orgs/${w.organizationId}/sites/${site.id as string}`
        server.create("empty")
        const remote = { url: server.url("empty"), ref: "refs/heads/main" }
        expect((yield* call("POST", `${sitePath}/git/export`, { token, body: { ...remote, commitMessage: "First" } })).status).toBe(204)
        const info = yield* siteSettled(`${sitePath}/git/info`, token)
        expect(info.operation, JSON.stringify(info)).toMatchObject({ state: "success" })
        const files = server.git("empty", ["ls-tree", "-r", "--name-only", "main"]).trim().split("\n")
        expect(files).toContain("docs.yaml")
        const siteSpace = (yield* call("GET", `${sitePath}/site-spaces`, { token })).body.items[0]
        expect(files).toContain(`${siteSpace.path as string}/SUMMARY.md`)
        const config = server.git("empty", ["show", "main:docs.yaml"])
        expect(config).toContain("title: Handbook site")
        expect(config).toContain(`directory: ./${siteSpace.path as string}`)
        // Exported again, untouched: no commit.
        const head = server.git("empty", ["rev-parse", "main"]).trim()
        expect((yield* call("POST", `${sitePath}/git/export`, { token, body: { ...remote, commitMessage: "Again" } })).status).toBe(204)
        expect((yield* siteSettled(`${sitePath}/git/info`, token)).operation.state).toBe("success")
        expect(server.git("empty", ["rev-parse", "main"]).trim()).toBe(head)
        // Another site imports it: the same structure.
        const other = (yield* call("POST", `/v1/orgs/${w.organizationId}/sites`, { token, body: { title: "Copy" } })).body
        const otherPath = `/v1/orgs/${w.organizationId}/sites/${other.id as string}`
        expect((yield* call("POST", `${otherPath}/git/import`, { token, body: remote })).status).toBe(204)
        expect((yield* siteSettled(`${otherPath}/git/info`, token)).operation.state).toBe("success")
        const copied = (yield* call("GET", `${otherPath}/site-spaces`, { token })).body.items as Array<SiteSpaceItem>
        expect(copied.map((s) => [s.path, s.space.title])).toEqual([[siteSpace.path, "Handbook"]])
        expect((yield* call("GET", otherPath, { token })).body.title).toBe("Handbook site")
      }))
  })

suite("Git Sync of a whole site from docs.yaml: memory", MemoryStorage)
suite("Git Sync of a whole site from docs.yaml: embedded PostgreSQL (PGlite)", PgStorage.pipe(Layer.provide(PgliteClient())))
