import { MemoryStorage } from "@octavo/adapters-memory"
import { classifyAddress, GitRepositoriesLive } from "@octavo/adapters-node"
import { commitFiles, PASSWORD, startGitServer } from "@octavo/adapters-node/gitServer"
import { PgliteClient, PgServerClientInFreshSchema, PgStorage } from "@octavo/adapters-pg"
import {
  DomainServices,
  OutsideNotGiven,
  GitSyncOperations,
  GitSyncRepository,
  SiteGitSync,
  SiteGitSyncRepository,
  type SiteId,
  type SpaceId,
  type StoragePorts
} from "@octavo/domain"
import { expect, it, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import { RevisionObject } from "../src/content/Wire.js"
import { ServerInstanceLive } from "../src/gitsync/index.js"
import { settled } from "./gitsync/settled.js"
import { addMember, newUser, world } from "./scenario.js"
import { bodyAs, call, testServer } from "./harness.js"
import { png } from "./site.js"

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

const gitServer = Effect.acquireRelease(Effect.promise(startGitServer), (server) => Effect.promise(server.close))

/** Waits until the space's operation is no longer running; answers `GET git/info`'s body. */
const newSpace = (organizationId: string, token: string, title = "Synced") =>
  Effect.map(call("POST", `/v1/orgs/${organizationId}/spaces`, { token, body: { title } }), (r) => r.body.id as string)

const contentOf = (spaceId: string, token: string) =>
  Effect.map(call("GET", `/v1/spaces/${spaceId}/content`, { token }), (r) => bodyAs(RevisionObject, r))

/** A space with nested pages, front matter, a group, a link and a file. */
const writeSpace = (spaceId: string, token: string) =>
  Effect.gen(function*() {
    const answer = yield* call("POST", `/v1/spaces/${spaceId}/content`, {
      token,
      body: {
        changes: [
          { operation: "insert_files", files: [{ ref: "logo", name: "logo.png", contentType: "image/png", base64: base64(png) }] },
          { operation: "insert_page", ref: "intro", title: "Welcome", document: { markdown: "Hello ![logo](./logo).\n" } },
          {
            operation: "insert_page",
            ref: "guide",
            title: "Guide",
            description: "How to",
            hidden: true,
            document: { markdown: "Back to [welcome](./intro).\n" }
          },
          { operation: "insert_page", kind: "link", title: "Elsewhere", href: "https://example.com/" }
        ]
      }
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const content = yield* contentOf(spaceId, token)
    const guide = content.pages.find((p) => p.title === "Guide")
    yield* call("POST", `/v1/spaces/${spaceId}/content`, {
      token,
      body: { changes: [{ operation: "insert_page", title: "Install", into: guide?.id, document: { markdown: "Steps.\n" } }] }
    })
  })

const body = (server: { url: (name: string) => string }, name: string, fields: Record<string, unknown> = {}) => ({
  url: server.url(name),
  ref: "refs/heads/main",
  ...fields
})

const suite = (name: string, storage: Layer.Layer<StoragePorts, unknown>) =>
  layer(testServer(storage, { fetch: { allow: ["loopback"] } }), { excludeTestServices: true, timeout: 120_000 })(name, (it) => {
    it.scoped(
      "export writes the space as one commit (author the caller, committer Octavo); import reads it into a new space",
      () =>
        Effect.gen(function*() {
          const server = yield* gitServer
          const w = yield* world
          server.create("docs")
          const kept = commitFiles(server, "docs", new Map([["LICENSE", "MIT\n"], ["old.md", "# Old\n"]]), "start")
          const spaceId = yield* newSpace(w.organizationId, w.alice.token)
          yield* writeSpace(spaceId, w.alice.token)
          const exported = yield* call("POST", `/v1/spaces/${spaceId}/git/export`, {
            token: w.alice.token,
            body: body(server, "docs", { commitMessage: "Docs from Octavo", repoTreeURL: "https://git.example/acme/docs/tree/main" })
          })
          expect(exported.status).toBe(204)
          const info = yield* settled(spaceId, w.alice.token)
          expect(info).toMatchObject({
            repoName: "docs",
            url: "https://git.example/acme/docs/tree/main",
            operation: { state: "success", direction: "export" },
            operationTimeout: 600000
          })
          expect(JSON.stringify(info)).not.toContain(PASSWORD)
          const head = server.git("docs", ["rev-parse", "main"]).trim()
          expect(info.operation.commit).toBe(head)
          expect(server.git("docs", ["log", "-1", "--format=%an|%cn <%ce>|%P|%s", "main"]).trim()).toBe(
            `Alice Admin|Octavo <octavo@localhost>|${kept}|Docs from Octavo`
          )
          const files = server.git("docs", ["ls-tree", "-r", "--name-only", "main"]).trim().split("\n")
          // `old.md` is not Octavo's (the space never synced with this branch): it stays, as does LICENSE.
          expect(files).toEqual([
            ".gitbook/assets/logo.png",
            "LICENSE",
            "README.md",
            "SUMMARY.md",
            "guide/README.md",
            "guide/install.md",
            "old.md"
          ])
          expect(server.git("docs", ["show", "main:SUMMARY.md"])).toBe(
            "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n* [Elsewhere](https://example.com/)\n"
          )
          expect(server.git("docs", ["show", "main:guide/README.md"])).toBe(
            "---\ndescription: How to\nhidden: true\n---\n\n# Guide\n\nBack to [welcome](../README.md).\n"
          )
          expect(server.git("docs", ["show", "main:README.md"])).toBe("# Welcome\n\nHello ![logo](.gitbook/assets/logo.png).\n")

          // The same content again: no commit.
          yield* call("POST", `/v1/spaces/${spaceId}/git/export`, {
            token: w.alice.token,
            body: body(server, "docs", { commitMessage: "Again" })
          })
          expect((yield* settled(spaceId, w.alice.token)).operation.state).toBe("success")
          expect(server.git("docs", ["rev-parse", "main"]).trim()).toBe(head)

          // Importing what Octavo itself exported is a no-op: the revision stays.
          const before = (yield* contentOf(spaceId, w.alice.token)).id
          yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { token: w.alice.token, body: body(server, "docs") })
          const noop = yield* settled(spaceId, w.alice.token)
          expect(noop.operation).toMatchObject({ state: "success", direction: "import" })
          expect(noop.operation.revision).toBeUndefined()
          expect((yield* contentOf(spaceId, w.alice.token)).id).toBe(before)
          // With force it makes a revision, whose commit Octavo made.
          yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { token: w.alice.token, body: body(server, "docs", { force: true }) })
          const own = yield* settled(spaceId, w.alice.token)
          const ownRevision = yield* call("GET", `/v1/spaces/${spaceId}/revisions/${own.operation.revision}`, { token: w.alice.token })
          expect(ownRevision.body.git).toEqual({
            oid: head,
            message: "Docs from Octavo",
            createdByService: true,
            createdByGitBook: true,
            ref: "refs/heads/main"
          })

          // Into a new space: the same tree, fields and markdown; links by id again.
          const copyId = yield* newSpace(w.organizationId, w.alice.token, "Copy")
          yield* call("POST", `/v1/spaces/${copyId}/git/import`, {
            token: w.alice.token,
            body: body(server, "docs", { repoCommitURL: "https://git.example/acme/docs/commit/" })
          })
          const imported = yield* settled(copyId, w.alice.token)
          expect(imported.operation).toMatchObject({ state: "success", direction: "import", commit: head })
          const copy = yield* contentOf(copyId, w.alice.token)
          expect(copy.id).toBe(imported.operation.revision)
          // The imported revision names its commit; the space shows the same sync as git/info, alone and in lists.
          const revision = yield* call("GET", `/v1/spaces/${copyId}/revisions/${copy.id}`, { token: w.alice.token })
          expect(revision.body.git).toEqual({
            oid: head,
            message: "Docs from Octavo",
            createdByService: false,
            createdByGitBook: false,
            url: `https://git.example/acme/docs/commit/${head}`,
            ref: "refs/heads/main"
          })
          expect((yield* call("GET", `/v1/spaces/${copyId}/content`, { token: w.alice.token })).body.git).toEqual(revision.body.git)
          expect((yield* call("GET", `/v1/spaces/${copyId}`, { token: w.alice.token })).body.gitSync).toEqual(imported)
          const listed = yield* call("GET", `/v1/orgs/${w.organizationId}/spaces`, { token: w.alice.token })
          const gitSyncs = new Map(listed.body.items.map((item: { id: string; gitSync?: unknown }) => [item.id, item.gitSync]))
          expect(gitSyncs.get(copyId)).toEqual(imported)
          expect(gitSyncs.get(spaceId)).toEqual(yield* settled(spaceId, w.alice.token))
          const unsynced = yield* newSpace(w.organizationId, w.alice.token, "Unsynced")
          expect((yield* call("GET", `/v1/spaces/${unsynced}`, { token: w.alice.token })).body.gitSync).toBeUndefined()
          expect(copy.pages.map((p) => [p.title, p.type, p.path, p.pages.map((c) => c.path)])).toEqual([
            ["Welcome", "document", "welcome", []],
            ["Guide", "document", "guide", ["guide/install"]],
            ["Elsewhere", "link", "elsewhere", []]
          ])
          const [welcome, guide] = copy.pages
          expect(guide).toMatchObject({ description: "How to", hidden: true, markdown: `Back to [welcome](/pages/${welcome?.id}).\n` })
          expect(welcome?.markdown).toBe(`Hello ![logo](/files/${copy.files[0]?.id}).\n`)
          expect(copy.files).toMatchObject([{ name: "logo.png", contentType: "image/png", size: png.length }])

          // A change in the repository: one new revision, the pages keep their ids; an identical commit makes none.
          const edited = commitFiles(
            server,
            "docs",
            new Map<string, string | Uint8Array>([
              ["LICENSE", "MIT\n"],
              ["README.md", "# Welcome\n\nHello again.\n"],
              [
                "SUMMARY.md",
                "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n"
              ],
              ["guide/README.md", "# Guide\n\nChanged.\n"],
              ["guide/install.md", "# Install\n\nSteps.\n"],
              [".gitbook/assets/logo.png", png]
            ]),
            "Edit in Git"
          )
          const cr = yield* call("POST", `/v1/spaces/${copyId}/change-requests`, { token: w.alice.token, body: { subject: "Open" } })
          yield* call("PATCH", `/v1/spaces/${copyId}/change-requests/${cr.body.id}`, { token: w.alice.token, body: { status: "open" } })
          yield* call("POST", `/v1/spaces/${copyId}/git/import`, { token: w.alice.token, body: body(server, "docs") })
          const again = yield* settled(copyId, w.alice.token)
          expect(again.operation).toMatchObject({ state: "success", commit: edited })
          const after = yield* contentOf(copyId, w.alice.token)
          expect(after.id).toBe(again.operation.revision)
          expect(after.pages.map((p) => p.id)).toEqual([welcome?.id, guide?.id])
          expect(after.pages[1]?.pages[0]?.id).toBe(guide?.pages[0]?.id)
          expect(after.pages[1]?.markdown).toBe("Changed.\n")
          expect((yield* call("GET", `/v1/spaces/${copyId}/change-requests/${cr.body.id}`, { token: w.alice.token })).body.outdated).toBe(
            true
          )
          yield* call("POST", `/v1/spaces/${copyId}/git/import`, { token: w.alice.token, body: body(server, "docs") })
          expect((yield* settled(copyId, w.alice.token)).operation.revision).toBeUndefined()
          expect((yield* contentOf(copyId, w.alice.token)).id).toBe(after.id)
          // With force, the same commit makes a revision anyway.
          yield* call("POST", `/v1/spaces/${copyId}/git/import`, { token: w.alice.token, body: body(server, "docs", { force: true }) })
          const forced = yield* settled(copyId, w.alice.token)
          expect(forced.operation.revision).toBeDefined()
          expect((yield* contentOf(copyId, w.alice.token)).id).toBe(forced.operation.revision)
          expect(server.requests.every((line) => !line.includes(PASSWORD))).toBe(true)
        }),
      120_000
    )

    it.scoped("standalone, stale timestamps, force, a branch that moved on, a locked space", () =>
      Effect.gen(function*() {
        const server = yield* gitServer
        const w = yield* world
        server.create("repo")
        commitFiles(server, "repo", new Map([["README.md", "# One\n"]]), "one")
        const spaceId = yield* newSpace(w.organizationId, w.alice.token)
        const first = (yield* contentOf(spaceId, w.alice.token)).id
        // Standalone: a revision that is not made active, and no sync fields.
        yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { token: w.alice.token, body: body(server, "repo", { standalone: true }) })
        const standalone = yield* settled(spaceId, w.alice.token)
        expect(standalone.operation.revision).toBeDefined()
        expect(standalone.repoName).toBeUndefined()
        expect((yield* contentOf(spaceId, w.alice.token)).id).toBe(first)
        const revision = yield* call("GET", `/v1/spaces/${spaceId}/revisions/${standalone.operation.revision}`, { token: w.alice.token })
        expect(revision.status).toBe(200)
        expect(revision.body.pages[0].title).toBe("One")

        // Timestamps: a newer one applies; an older one answers 204 and queues nothing.
        const t = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute)).toISOString()
        expect(
          (yield* call("POST", `/v1/spaces/${spaceId}/git/import`, {
            token: w.alice.token,
            body: body(server, "repo", { timestamp: t(10) })
          })).status
        ).toBe(204)
        const applied = yield* settled(spaceId, w.alice.token)
        expect(applied.operation.state).toBe("success")
        const stale = yield* call("POST", `/v1/spaces/${spaceId}/git/import`, {
          token: w.alice.token,
          body: body(server, "repo", { timestamp: t(5), ref: "refs/heads/missing" })
        })
        expect(stale.status).toBe(204)
        expect((yield* settled(spaceId, w.alice.token)).operation).toEqual(applied.operation)
        // An equal timestamp is applied; a missing branch fails the operation.
        yield* call("POST", `/v1/spaces/${spaceId}/git/import`, {
          token: w.alice.token,
          body: body(server, "repo", { timestamp: t(10), ref: "refs/heads/missing" })
        })
        const missing = yield* settled(spaceId, w.alice.token)
        expect(missing.operation).toMatchObject({ state: "failure", error: "The branch refs/heads/missing does not exist" })
        // force skips the check.
        yield* call("POST", `/v1/spaces/${spaceId}/git/import`, {
          token: w.alice.token,
          body: body(server, "repo", { timestamp: t(1), force: true })
        })
        expect((yield* settled(spaceId, w.alice.token)).operation.state).toBe("success")

        // Export to a branch that moved on after our fetch is retried once on the new head; force pushes over it.
        yield* call("POST", `/v1/spaces/${spaceId}/git/export`, {
          token: w.alice.token,
          body: body(server, "repo", { commitMessage: "Export", timestamp: t(20), ref: "refs/heads/new" })
        })
        const created = yield* settled(spaceId, w.alice.token)
        expect(created.operation.state).toBe("success")
        expect(server.git("repo", ["rev-list", "--count", "new"]).trim()).toBe("1")
        commitFiles(server, "repo", new Map([["other.txt", "theirs"], ["README.md", "# Theirs\n"]]), "theirs", "refs/heads/new")
        yield* call("POST", `/v1/spaces/${spaceId}/git/export`, {
          token: w.alice.token,
          body: body(server, "repo", { commitMessage: "Ours", timestamp: t(21), ref: "refs/heads/new" })
        })
        expect((yield* settled(spaceId, w.alice.token)).operation.state).toBe("success")
        expect(server.git("repo", ["log", "--format=%s", "new"]).trim().split("\n")).toEqual(["Ours", "theirs", "Export"])
        expect(server.git("repo", ["show", "new:other.txt"])).toBe("theirs")
        yield* call("POST", `/v1/spaces/${spaceId}/git/export`, {
          token: w.alice.token,
          body: body(server, "repo", { commitMessage: "Forced", timestamp: t(22), ref: "refs/heads/main", force: true })
        })
        expect((yield* settled(spaceId, w.alice.token)).operation.state).toBe("success")
        expect(server.git("repo", ["log", "-1", "--format=%s", "main"]).trim()).toBe("Forced")

        // One operation runs at a time per space; more than 10 waiting is 409. The server holds the first one's fetch
        // until every request of the burst is answered, so none ends early and frees a place.
        const release = server.hold()
        const burst = yield* Effect.all(
          Array.from({ length: 16 }, () =>
            call("POST", `/v1/spaces/${spaceId}/git/import`, { token: w.alice.token, body: body(server, "repo", { force: true }) })),
          { concurrency: "unbounded" }
        )
        release()
        const statuses = burst.map((answer) =>
          answer.status
        )
        expect(statuses.every((status) => status === 204 || status === 409)).toBe(true)
        // One runs and ten wait (ten and the one, if the first has not left the queue yet): the rest is refused.
        expect(statuses.filter((status) => status === 409).length).toBeGreaterThanOrEqual(5)
        expect(statuses.filter((status) => status === 409).length).toBeLessThanOrEqual(6)
        expect(burst.find((answer) => answer.status === 409)?.body.error.message).toBe(
          "More than 10 Git Sync operations are queued for this space"
        )
        expect((yield* settled(spaceId, w.alice.token)).operation.state).toBe("success")

        // A locked space refuses imports (409), but not standalone ones.
        yield* call("PATCH", `/v1/spaces/${spaceId}`, { token: w.alice.token, body: { editMode: "locked" } })
        const locked = yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { token: w.alice.token, body: body(server, "repo") })
        expect(locked.status).toBe(409)
        expect(
          (yield* call("POST", `/v1/spaces/${spaceId}/git/import`, {
            token: w.alice.token,
            body: body(server, "repo", { standalone: true })
          })).status
        ).toBe(204)
        yield* settled(spaceId, w.alice.token)
      }), 120_000)

    it.scoped("refused URLs, refs and fields are 400; credentials are redacted; roles and organizations", () =>
      Effect.gen(function*() {
        const server = yield* gitServer
        const w = yield* world
        server.create("private")
        commitFiles(server, "private", new Map([["README.md", "# Private\n"]]), "one")
        const spaceId = yield* newSpace(w.organizationId, w.alice.token)
        const post = (path: "import" | "export", fields: Record<string, unknown>, token = w.alice.token) =>
          call("POST", `/v1/spaces/${spaceId}/git/${path}`, {
            token,
            body: { url: server.url("private"), ref: "refs/heads/main", commitMessage: "m", ...fields }
          })
        const refused: ReadonlyArray<readonly [Record<string, unknown>, RegExp]> = [
          [{ url: "ssh://git@example.com/a/b.git" }, /url: must be an http or https URL/],
          [{ url: "git://example.com/a/b.git" }, /url/],
          [{ url: "git@example.com:a/b.git" }, /url/],
          [{ url: "ext::sh -c touch% /tmp/pwned" }, /url: must not name a Git remote helper/],
          [{ url: "file:///etc" }, /url: cannot be reached: file:\/\/ repositories are not allowed/],
          [{ url: "http://10.0.0.1/a/b.git" }, /url: cannot be reached: the address 10\.0\.0\.1/],
          // Credentials that do not decode (`%ZZ`, cut UTF-8, a lone `%`) are 400, not a failure of the server.
          [{ url: "http://a%ZZ:b@127.0.0.1/docs.git" }, /^url: must hold a user name and password in valid percent-encoding \(UTF-8\)$/],
          [{ url: "http://a:%E0%A4%A@127.0.0.1/docs.git" }, /^url: must hold a user name and password in valid percent-encoding/],
          [{ url: "http://a:%@127.0.0.1/docs.git" }, /^url: must hold a user name and password in valid percent-encoding/],
          [{ ref: "main" }, /ref: must be refs\/heads\/<branch>/],
          [{ ref: "refs/heads/a..b" }, /ref: is not a valid Git ref name/],
          [{ ref: "refs/heads/x.lock" }, /ref/],
          [{ repoProjectDirectory: "../up" }, /repoProjectDirectory: must not hold \.\./],
          [{ repoTreeURL: "https://u:p@example.com/tree" }, /repoTreeURL: must not hold credentials/],
          [{ repoCommitURL: "javascript:alert(1)" }, /repoCommitURL/],
          [{ timestamp: "yesterday" }, /timestamp/],
          [{ ref: undefined }, /ref/]
        ]
        for (const [fields, message] of refused) {
          const answer = yield* post("import", fields)
          expect(answer.status, JSON.stringify(fields)).toBe(400)
          expect(answer.body.error.message).toMatch(message)
        }
        expect((yield* post("export", { commitMessage: "" })).status).toBe(400)
        expect((yield* post("export", { commitMessage: "m".repeat(4097) })).status).toBe(400)
        expect((yield* post("export", { commitMessage: "m".repeat(4096), ref: "refs/heads/long" })).status).toBe(204)
        yield* settled(spaceId, w.alice.token)
        // The URL's limit: 2048 characters pass, 2049 do not.
        const padded = (length: number) => `${server.url("private")}?${"a".repeat(length - server.url("private").length - 1)}`
        expect(padded(2048).length).toBe(2048)
        expect((yield* post("import", { url: padded(2049) })).status).toBe(400)
        expect((yield* post("import", { url: padded(2048), standalone: true })).status).toBe(204)
        yield* settled(spaceId, w.alice.token)

        // A wrong password: the operation fails, and no answer holds the credentials.
        const secret = "hunter2-wrong"
        yield* post("import", { url: server.url("private").replace(PASSWORD, secret), force: true })
        const failed = yield* settled(spaceId, w.alice.token)
        expect(failed.operation.state).toBe("failure")
        expect(JSON.stringify(failed)).not.toContain(secret)
        expect(JSON.stringify(failed)).not.toContain(PASSWORD)
        expect(failed.url).not.toContain("@")

        // Roles: import and export need create; info needs read; other organizations see nothing.
        const reader = yield* newUser("Rita Reader")
        yield* addMember(w.organizationId, w.alice, reader, "read")
        expect((yield* post("import", {}, w.bob.token)).status).toBe(403)
        expect((yield* post("export", {}, reader.token)).status).toBe(403)
        expect((yield* call("GET", `/v1/spaces/${spaceId}/git/info`, { token: reader.token })).status).toBe(200)
        expect((yield* post("import", {}, w.carol.token)).status).toBe(404)
        expect((yield* call("GET", `/v1/spaces/${spaceId}/git/info`, { token: w.carol.token })).status).toBe(404)
        expect((yield* call("GET", `/v1/spaces/${spaceId}/git/info`)).status).toBe(401)
        expect(
          (yield* call("POST", `/v1/spaces/${spaceId}/git/import`, { body: { url: server.url("private"), ref: "refs/heads/main" } })).status
        ).toBe(401)
        // Info is 404 before anything was recorded.
        const fresh = yield* newSpace(w.organizationId, w.alice.token)
        expect((yield* call("GET", `/v1/spaces/${fresh}/git/info`, { token: w.alice.token })).status).toBe(404)
      }), 120_000)
  })

/** The domain on memory as the server `host-a:8080` runs it, started again. */
const restartedOnHostA = DomainServices.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      MemoryStorage,
      OutsideNotGiven,
      GitRepositoriesLive({ allow: ["loopback"], classify: classifyAddress }),
      ServerInstanceLive("host-a:8080")
    )
  )
)

it.effect("a restarted server fails only the operations it was running, and those no live server holds", () =>
  Effect.gen(function*() {
    const repository = yield* GitSyncRepository
    const minutes = (n: number) => new Date(n * 60_000)
    const running = (spaceId: string, owner: string, startedAt: Date) =>
      repository.save({
        spaceId: spaceId as SpaceId,
        updatedAt: startedAt,
        operation: { state: "running", direction: "import", startedAt, owner }
      })
    yield* TestClock.adjust(Duration.minutes(30))
    // This server's (host-a), another live server's, and one a server left 30 minutes ago (past twice the timeout).
    yield* running("mine", "host-a:8080", minutes(25))
    yield* running("theirs", "host-b:8080", minutes(25))
    yield* running("abandoned", "host-c:8080", minutes(0))
    yield* (yield* GitSyncOperations).recover
    const operationOf = (spaceId: string) => Effect.map(repository.find(spaceId as SpaceId), (state) => Option.getOrThrow(state).operation)
    expect(yield* operationOf("mine")).toMatchObject({
      state: "failure",
      direction: "import",
      startedAt: minutes(25),
      endedAt: minutes(30),
      error: "The server restarted before the operation finished"
    })
    expect(yield* operationOf("theirs")).toEqual({ state: "running", direction: "import", startedAt: minutes(25), owner: "host-b:8080" })
    expect((yield* operationOf("abandoned"))?.state).toBe("failure")
    expect((yield* repository.running()).map((s) => s.spaceId)).toEqual(["theirs"])
  }).pipe(Effect.provide(restartedOnHostA)))

it.effect("a restarted server fails only the site operations it was running, and those no live server holds", () =>
  Effect.gen(function*() {
    const repository = yield* SiteGitSyncRepository
    const minutes = (n: number) => new Date(n * 60_000)
    const running = (siteId: string, owner: string, updatedAt: Date) =>
      repository.save({
        siteId: siteId as SiteId,
        updatedAt,
        nodes: {},
        operation: { state: "running", direction: "export", stage: "content_process", startedAt: updatedAt, updatedAt, owner, spaces: {} }
      })
    yield* TestClock.adjust(Duration.minutes(30))
    yield* running("mine", "host-a:8080", minutes(25))
    yield* running("theirs", "host-b:8080", minutes(25))
    yield* running("abandoned", "host-c:8080", minutes(0))
    yield* (yield* SiteGitSync).recover
    const operationOf = (siteId: string) => Effect.map(repository.find(siteId as SiteId), (state) => Option.getOrThrow(state).operation)
    expect(yield* operationOf("mine")).toMatchObject({
      state: "failure",
      updatedAt: minutes(30),
      error: "The server restarted before the operation finished"
    })
    expect((yield* operationOf("theirs"))?.state).toBe("running")
    expect((yield* operationOf("abandoned"))?.state).toBe("failure")
    expect((yield* repository.running()).map((s) => s.siteId)).toEqual(["theirs"])
  }).pipe(Effect.provide(restartedOnHostA)))

suite("Git Sync over HTTP: memory", MemoryStorage)
suite("Git Sync over HTTP: embedded PostgreSQL (PGlite)", PgStorage.pipe(Layer.provide(PgliteClient())))
const serverUrl = process.env["OCTAVO_TEST_DATABASE_URL"]
if (serverUrl !== undefined) {
  suite("Git Sync over HTTP: PostgreSQL server", PgStorage.pipe(Layer.provide(PgServerClientInFreshSchema(serverUrl))))
}
