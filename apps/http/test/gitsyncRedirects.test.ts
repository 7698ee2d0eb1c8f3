import { MemoryStorage } from "@octavo/adapters-memory"
import { commitFiles, startGitServer } from "@octavo/adapters-node/gitServer"
import { PgliteClient, PgStorage } from "@octavo/adapters-pg"
import type { StoragePorts } from "@octavo/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { type PageObject, RevisionObject } from "../src/content/Wire.js"
import { settled } from "./gitsync/settled.js"
import { bodyAs, call, testServer } from "./harness.js"
import { publishedSite, spaceWithPages, web } from "./readerWeb.js"
import { world } from "./scenario.js"

// `.gitbook.yaml`'s redirects (issue 39): a repository of our own in GitBook's Git Sync format, its content under
// `docs/`, imported over the loopback Git server into a space that two published sites show (one in a section, one
// at its root). A request for an old path answers 301 to the page imported from the redirect's target file.

const gitbookYaml = `root: ./docs/

structure:
  readme: README.md
  summary: SUMMARY.md

redirects:
  previous/setup: guides/install.md
  old-reference.md: reference.md
  ./legacy/guides/: guides/README.md
  reference: guides/install.md
  help/contact: missing.md
  ../outside: reference.md
  broken: ../../etc/passwd
  nested: { not: a path }
  empty: ""
`

const repository = new Map([
  [".gitbook.yaml", gitbookYaml],
  ["LICENSE", "MIT\n"],
  ["docs/README.md", "# Welcome\n\nStart here.\n"],
  [
    "docs/SUMMARY.md",
    "# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n* [Reference](reference.md)\n"
  ],
  ["docs/guides/README.md", "# Guides\n\nHow to.\n"],
  ["docs/guides/install.md", "# Install\n\nSteps.\n"],
  ["docs/reference.md", "# Reference\n\nFields.\n"]
])

const flatten = (pages: ReadonlyArray<PageObject>): Array<PageObject> => pages.flatMap((p) => [p, ...flatten(p.pages)])

const suite = (name: string, storage: Layer.Layer<StoragePorts, unknown>) =>
  layer(testServer(storage, { fetch: { allow: ["loopback"] } }), { excludeTestServices: true, timeout: 120_000 })(name, (it) => {
    it.scoped("old paths of .gitbook.yaml answer 301 to their target's page on every site showing the space; others 404", () =>
      Effect.gen(function*() {
        const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
        server.create("docs")
        commitFiles(server, "docs", repository, "Docs with redirects")
        const w = yield* world
        const token = w.alice.token
        const spaceId = (yield* call("POST", `/v1/orgs/${w.organizationId}/spaces`, { token, body: { title: "Synced" } })).body.id as string
        const remote = { url: server.url("docs"), ref: "refs/heads/main" }
        expect((yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { token, body: remote })).status).toBe(204)
        expect((yield* settled(spaceId, token)).operation.state).toBe("success")
        const pages = flatten(bodyAs(RevisionObject, yield* call("GET", `/v1/spaces/${spaceId}/content`, { token })).pages)
        const pathOf = (title: string) => pages.find((p) => p.title === title)?.path
        expect([pathOf("Install"), pathOf("Guides"), pathOf("Reference")]).toEqual(["guides/install", "guides", "reference"])

        // Site A: the synced space in a section of its own, beside a default section; site B: the space at its root.
        const other = yield* spaceWithPages(w.organizationId, token, "Other", [{ title: "Home" }])
        const siteA = yield* publishedSite(w.organizationId, w.alice, [other.spaceId], { basename: "a" })
        const section = yield* call("POST", `${siteA.path}/sections`, { token, body: { spaceId, title: "Product" } })
        expect([section.status, section.body.path]).toEqual([201, "product"])
        yield* publishedSite(w.organizationId, w.alice, [spaceId], { basename: "b" })
        const a = `/sites/${w.organizationId}/a`
        const b = `/sites/${w.organizationId}/b`

        const moved = [
          [`${a}/product/previous/setup`, `${a}/product/guides/install`],
          [`${a}/product/previous/setup/`, `${a}/product/guides/install`],
          [`${a}/product/previous/setup.md`, `${a}/product/guides/install`],
          [`${a}/product/old-reference`, `${a}/product/reference`],
          [`${a}/product/old-reference.md`, `${a}/product/reference`],
          [`${a}/product/legacy/guides`, `${a}/product/guides`],
          [`${b}/previous/setup`, `${b}/guides/install`],
          [`${b}/old-reference/`, `${b}/reference`]
        ] as const
        for (const [from, to] of moved) {
          const answer = yield* web(from)
          expect([from, answer.status, answer.headers["location"]]).toEqual([from, 301, to])
          expect((yield* web(to)).status).toBe(200)
        }
        // A page that exists wins over a redirect of its path; a target no page has, entries left out as invalid, a
        // path of the space in the other section, and unknown paths are 404.
        expect((yield* web(`${b}/reference`)).status).toBe(200)
        for (
          const path of [
            `${b}/help/contact`,
            `${b}/outside`,
            `${b}/broken`,
            `${b}/nested`,
            `${b}/empty`,
            `${a}/previous/setup`,
            `${b}/previous`,
            `${b}/nothing/here`
          ]
        ) {
          expect([path, (yield* web(path)).status]).toEqual([path, 404])
        }

        // A commit that changes only .gitbook.yaml: its redirects replace the old ones, though no page changed.
        commitFiles(
          server,
          "docs",
          new Map([...repository, [".gitbook.yaml", "root: ./docs/\nredirects:\n  setup-guide: guides/install.md\n"]]),
          "Other redirects"
        )
        yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { token, body: remote })
        expect((yield* settled(spaceId, token)).operation.state).toBe("success")
        const now = yield* web(`${b}/setup-guide`)
        expect([now.status, now.headers["location"]]).toEqual([301, `${b}/guides/install`])
        expect((yield* web(`${b}/previous/setup`)).status).toBe(404)
      }))
  })

suite("Git Sync redirects (memory)", MemoryStorage)
suite("Git Sync redirects (PGlite)", PgStorage.pipe(Layer.provide(PgliteClient({}))))
