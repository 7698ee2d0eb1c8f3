import { describe, expect, it } from "@effect/vitest"
import { type GitSession, remoteOf } from "@octavo/domain"
import { Effect, Exit, Option } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeGitRepositories } from "../../src/gitsync/GitCli.js"
import { classifyAddress } from "../../src/shared/WebFetch.js"
import { commitFiles, PASSWORD, startGitServer } from "./gitServer.js"

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const person = { name: "Ada", email: "ada@example.com" }
const octavo = { name: "Octavo", email: "octavo@localhost" }

describe("Git over the command line, against git http-backend on loopback", () => {
  it.scoped("fetches a branch, reads its files, commits on top and pushes; credentials never in a request URL", () =>
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
      server.create("docs")
      const first = commitFiles(server, "docs", new Map([["README.md", "# Hi\n"], ["keep.txt", "kept"]]), "first")
      const git = makeGitRepositories({ allow: ["loopback"], classify: classifyAddress })
      const session: GitSession = yield* git.open(remoteOf(server.url("docs"), "refs/heads/main"))
      const snapshot = Option.getOrThrow(yield* session.fetch({ maxBytes: 1024 * 1024 }))
      expect(snapshot.commit).toBe(first)
      expect(snapshot.message).toBe("first")
      expect(snapshot.entries.map((e) => e.path).sort()).toEqual(["README.md", "keep.txt"])
      const files = yield* session.read(snapshot.entries)
      expect(decoder.decode(files.get("README.md"))).toBe("# Hi\n")
      const commit = Option.getOrThrow(
        yield* session.commit({
          parent: snapshot.commit,
          remove: ["README.md"],
          put: new Map([["docs/a b.md", encoder.encode("# A\n")]]),
          message: "export",
          author: person,
          committer: octavo
        })
      )
      yield* session.push(commit, { force: false })
      expect(server.git("docs", ["rev-parse", "refs/heads/main"]).trim()).toBe(commit)
      expect(server.git("docs", ["ls-tree", "-r", "--name-only", "main"]).trim().split("\n")).toEqual(["docs/a b.md", "keep.txt"])
      expect(server.git("docs", ["log", "-1", "--format=%an <%ae>|%cn <%ce>|%P", "main"]).trim()).toBe(
        `Ada <ada@example.com>|Octavo <octavo@localhost>|${first}`
      )
      // The same tree again is no commit.
      const same = yield* session.commit({ parent: commit, remove: [], put: new Map(), message: "x", author: person, committer: octavo })
      expect(Option.isNone(same)).toBe(true)
      // A push on a branch that moved on is rejected, and goes through with force.
      const moved = commitFiles(server, "docs", new Map([["other.md", "x"]]), "moved")
      const stale = Option.getOrThrow(
        yield* session.commit({
          parent: commit,
          remove: [],
          put: new Map([["new.md", encoder.encode("new")]]),
          message: "stale",
          author: person,
          committer: octavo
        })
      )
      const rejected = yield* Effect.exit(session.push(stale, { force: false }))
      expect(Exit.isFailure(rejected) && JSON.stringify(rejected.cause).includes("GitRejected")).toBe(true)
      expect(server.git("docs", ["rev-parse", "refs/heads/main"]).trim()).toBe(moved)
      yield* session.push(stale, { force: true })
      expect(server.git("docs", ["rev-parse", "refs/heads/main"]).trim()).toBe(stale)
      expect(server.requests.every((line) => !line.includes(PASSWORD))).toBe(true)
    }))

  it.scoped("a branch that does not exist is none, and a root commit creates it", () =>
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
      server.create("empty")
      const git = makeGitRepositories({ allow: ["loopback"], classify: classifyAddress })
      const session = yield* git.open(remoteOf(server.url("empty"), "refs/heads/new"))
      expect(Option.isNone(yield* session.fetch({ maxBytes: 1024 }))).toBe(true)
      const root = Option.getOrThrow(
        yield* session.commit({
          parent: null,
          remove: [],
          put: new Map([["README.md", encoder.encode("# Root\n")]]),
          message: "root",
          author: person,
          committer: octavo
        })
      )
      yield* session.push(root, { force: false })
      expect(server.git("empty", ["rev-parse", "refs/heads/new"]).trim()).toBe(root)
    }))

  it.scoped("wrong credentials fail with the password masked; loopback is refused unless allowed; a huge fetch is cut", () =>
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
      server.create("private")
      commitFiles(server, "private", new Map([["big.bin", crypto.randomBytes(3 * 1024 * 1024)]]), "big")
      const secret = "wrong-secret-42"
      const wrong = yield* Effect.exit(Effect.scoped(Effect.flatMap(
        makeGitRepositories({ allow: ["loopback"], classify: classifyAddress }).open(
          remoteOf(server.url("private", { user: "octo", password: secret }), "refs/heads/main")
        ),
        (s) => s.fetch({ maxBytes: 1024 })
      )))
      expect(Exit.isFailure(wrong)).toBe(true)
      expect(JSON.stringify(wrong)).not.toContain(secret)
      const refused = yield* Effect.exit(
        makeGitRepositories({ classify: classifyAddress }).check(remoteOf(server.url("private"), "refs/heads/main"))
      )
      expect(JSON.stringify(refused)).toContain("127.0.0.1")
      expect(JSON.stringify(refused)).toContain("RemoteRefused")
      const big = yield* Effect.exit(Effect.scoped(Effect.flatMap(
        makeGitRepositories({ allow: ["loopback"], classify: classifyAddress }).open(remoteOf(server.url("private"), "refs/heads/main")),
        (s) => s.fetch({ maxBytes: 1024 * 1024 })
      )))
      expect(JSON.stringify(big)).toContain("tooLarge")
    }))

  it.effect("file:// only under OCTAVO_GIT_FILE_ROOT", () =>
    Effect.gen(function*() {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "octavo-file-root-"))
      fs.mkdirSync(path.join(root, "repo.git"))
      const inside = remoteOf(`file://${root}/repo.git`, "refs/heads/main")
      const outside = remoteOf("file:///etc", "refs/heads/main")
      expect(Exit.isFailure(yield* Effect.exit(makeGitRepositories({ classify: classifyAddress }).check(inside)))).toBe(true)
      expect(Exit.isSuccess(yield* Effect.exit(makeGitRepositories({ fileRoot: root }).check(inside)))).toBe(true)
      expect(Exit.isFailure(yield* Effect.exit(makeGitRepositories({ fileRoot: root }).check(outside)))).toBe(true)
      expect(
        Exit.isFailure(yield* Effect.exit(makeGitRepositories({ fileRoot: root }).check(remoteOf(`file://${root}/../`, "refs/heads/main"))))
      ).toBe(true)
      fs.rmSync(root, { recursive: true, force: true })
    }))
})
