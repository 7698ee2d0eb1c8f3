// The Git port over the `git` command line, run in a locked-down environment (README, "Git Sync"):
// no system or user configuration, hooks, prompts, credential helpers or submodules; only the
// protocols the remote needs; credentials in an environment header, never in argv or a URL.
import { spawn } from "node:child_process"
import * as dns from "node:dns/promises"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import {
  type CommitInput,
  GitFailed,
  GitRejected,
  GitRepositories,
  type GitSession,
  redact,
  type Remote,
  RemoteRefused,
  type Snapshot,
  type TreeEntry
} from "@octavo/domain"
import { Effect, Layer, Option } from "effect"

/** Address classes an operator may open to outbound fetches, as the fetch guard names them. */
export type NetworkClass = "loopback" | "private" | "link-local"

export interface GitCliOptions {
  /** The git binary (default `git` on the PATH). */
  readonly git: string
  /** Address classes allowed besides public ones: the import fetch guard's setting (OCTAVO_IMPORT_ALLOW). */
  readonly allow: ReadonlyArray<NetworkClass>
  /** Where `file://` repositories may be (OCTAVO_GIT_FILE_ROOT); none when undefined. */
  readonly fileRoot: string | undefined
  /** The fetch guard's classification of an address: "public", a NetworkClass, or "reserved" (never reachable). */
  readonly classify: (address: string) => string
  /** One git command at most (default the operation timeout, 600 s). */
  readonly timeoutMs: number
}

// Without the guard's classification every address is refused: the server wires the guard in.
const defaults: GitCliOptions = { git: "git", allow: [], fileRoot: undefined, classify: () => "reserved", timeoutMs: 600_000 }

/** How git reaches a remote this time: the URL it is given and the pinned addresses of its host. */
interface Target {
  readonly url: string
  readonly file: boolean
  /** `host:port:address` for `http.curloptResolve`, so that git connects only to the vetted addresses. */
  readonly resolve: ReadonlyArray<string>
}

const refuse = (reason: string) => new RemoteRefused({ reason })

/** Resolves the host and checks every address with the fetch guard's classes. */
const vet = async (url: URL, options: GitCliOptions): Promise<Target> => {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname
  let addresses: ReadonlyArray<{ address: string; family: number }>
  if (/^[0-9.]+$/.test(host) || host.includes(":")) addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }]
  else {
    try {
      addresses = await dns.lookup(host, { all: true })
    } catch {
      throw refuse(`the host ${host} could not be resolved`)
    }
  }
  if (addresses.length === 0) throw refuse(`the host ${host} has no address`)
  for (const { address } of addresses) {
    const kind = options.classify(address)
    if (kind !== "public" && !options.allow.some((allowed) => allowed === kind)) {
      throw refuse(`the address ${address} of ${host} is not one this server may fetch (${kind})`)
    }
  }
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80"
  const list = addresses.map((a) => (a.family === 6 ? `[${a.address}]` : a.address)).join(",")
  return { url: url.href, file: false, resolve: [`${host}:${port}:${list}`] }
}

const targetOf = async (remote: Remote, options: GitCliOptions): Promise<Target> => {
  let url: URL
  try {
    url = new URL(remote.url)
  } catch {
    throw refuse("the URL is not valid")
  }
  if (url.protocol === "http:" || url.protocol === "https:") return vet(url, options)
  if (url.protocol !== "file:") throw refuse(`the scheme ${url.protocol.slice(0, -1)} is not allowed`)
  if (options.fileRoot === undefined) throw refuse("file:// repositories are not allowed on this server (OCTAVO_GIT_FILE_ROOT is not set)")
  let real: string
  let root: string
  try {
    root = await fs.realpath(options.fileRoot)
    real = await fs.realpath(fileURLToPath(url))
  } catch {
    throw refuse("the file:// repository does not exist")
  }
  if (real !== root && !real.startsWith(`${root}${path.sep}`)) throw refuse("the file:// repository is not under OCTAVO_GIT_FILE_ROOT")
  return { url: real, file: true, resolve: [] }
}

interface Run {
  readonly code: number
  readonly stdout: Buffer
  readonly stderr: string
}

/** The size of a directory tree, in bytes. */
const sizeOf = async (dir: string): Promise<number> => {
  let total = 0
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    try {
      total += (await fs.stat(path.join(entry.parentPath, entry.name))).size
    } catch {
      // A temporary file renamed meanwhile is counted under its new name.
    }
  }
  return total
}

export const makeGitRepositories = (settings?: Partial<GitCliOptions>) => {
  const options: GitCliOptions = { ...defaults, ...settings }

  const open = (remote: Remote) =>
    Effect.gen(function*() {
      const target = yield* Effect.tryPromise({
        try: () => targetOf(remote, options),
        catch: (error) => error instanceof RemoteRefused ? error : refuse(String(error))
      })
      const dir = yield* Effect.acquireRelease(
        Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "octavo-git-"))),
        (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
      )
      const secrets = [remote.password, remote.username, remote.password === undefined ? undefined : basic(remote)]
      const clean = (text: string) => redact(text, secrets).trim().split("\n").slice(-3).join(" ").slice(0, 500)

      const config: Array<readonly [string, string]> = [
        ["core.hooksPath", "/dev/null"],
        ["credential.helper", ""],
        ["core.askPass", ""],
        ["protocol.ext.allow", "never"],
        ["protocol.file.allow", target.file ? "always" : "never"],
        ["http.followRedirects", "false"],
        ["submodule.recurse", "false"],
        ["fetch.recurseSubmodules", "false"],
        ["core.fsmonitor", "false"],
        ["gc.auto", "0"],
        ["init.defaultBranch", "main"],
        ...target.resolve.map((entry) => ["http.curloptResolve", entry] as const),
        ...(remote.username !== undefined || remote.password !== undefined
          ? [["http.extraHeader", `Authorization: Basic ${basic(remote)}`] as const]
          : [])
      ]
      const env: Record<string, string> = {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        HOME: dir,
        XDG_CONFIG_HOME: dir,
        LC_ALL: "C",
        GIT_DIR: path.join(dir, "repo.git"),
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_TERMINAL_PROMPT: "0",
        GIT_ALLOW_PROTOCOL: target.file ? "file" : "http:https",
        GIT_PROTOCOL_FROM_USER: "0",
        GIT_NO_REPLACE_OBJECTS: "1",
        GIT_CONFIG_COUNT: String(config.length),
        ...Object.fromEntries(config.flatMap(([key, value], i) => [[`GIT_CONFIG_KEY_${i}`, key], [`GIT_CONFIG_VALUE_${i}`, value]]))
      }

      const git = (
        args: ReadonlyArray<string>,
        run?: { readonly input?: Buffer | string; readonly env?: Record<string, string>; readonly maxBytes?: number }
      ) =>
        Effect.async<Run, GitFailed>((resume) => {
          const child = spawn(options.git, args, { cwd: dir, env: { ...env, ...run?.env }, stdio: ["pipe", "pipe", "pipe"] })
          const out: Array<Buffer> = []
          let err = ""
          let failure: GitFailed | undefined
          const stop = (reason: GitFailed) => {
            failure ??= reason
            child.kill("SIGKILL")
          }
          const timer = setTimeout(
            () => stop(new GitFailed({ reason: `git took longer than ${options.timeoutMs / 1000} s`, timedOut: true })),
            options.timeoutMs
          )
          const watch = run?.maxBytes === undefined ? undefined : setInterval(() => {
            sizeOf(env["GIT_DIR"] as string).then((size) => {
              if (size > (run.maxBytes as number)) {
                stop(new GitFailed({ reason: `the repository is larger than ${run.maxBytes} bytes`, tooLarge: true }))
              }
            }, () => undefined)
          }, 100)
          child.stdout.on("data", (chunk: Buffer) => out.push(chunk))
          child.stderr.on("data", (chunk: Buffer) => {
            if (err.length < 64 * 1024) err += chunk.toString("utf8")
          })
          child.stdin.on("error", () => undefined)
          child.on("error", (error) => stop(new GitFailed({ reason: `git could not run: ${error.message}` })))
          child.on("close", (code) => {
            clearTimeout(timer)
            if (watch !== undefined) clearInterval(watch)
            if (failure !== undefined) return resume(Effect.fail(failure))
            resume(Effect.succeed({ code: code ?? -1, stdout: Buffer.concat(out), stderr: err }))
          })
          child.stdin.end(run?.input ?? "")
          return Effect.sync(() => child.kill("SIGKILL"))
        })

      const ok = (args: ReadonlyArray<string>, run?: Parameters<typeof git>[1]) =>
        Effect.flatMap(git(args, run), (result) =>
          result.code === 0
            ? Effect.succeed(result.stdout)
            : Effect.fail(new GitFailed({ reason: `git ${args[0]} failed: ${clean(result.stderr) || `exit code ${result.code}`}` })))

      yield* ok(["init", "--bare", "-q", env["GIT_DIR"] as string])

      const fetch: GitSession["fetch"] = ({ maxBytes }) =>
        Effect.gen(function*() {
          const listed = yield* ok(["ls-remote", "--", target.url, remote.ref])
          if (listed.toString("utf8").trim() === "") return Option.none()
          yield* ok([
            "fetch",
            "--depth=1",
            "--no-tags",
            "--no-recurse-submodules",
            "-q",
            "--",
            target.url,
            `+${remote.ref}:refs/octavo/head`
          ], {
            maxBytes
          })
          // A fetch quicker than the watcher is measured when it ends.
          const size = yield* Effect.promise(() => sizeOf(env["GIT_DIR"] as string))
          if (size > maxBytes) return yield* new GitFailed({ reason: `the repository is larger than ${maxBytes} bytes`, tooLarge: true })
          const commit = (yield* ok(["rev-parse", "--verify", "refs/octavo/head^{commit}"])).toString("utf8").trim()
          const raw = (yield* ok(["cat-file", "commit", commit])).toString("utf8")
          const message = raw.slice(raw.indexOf("\n\n") + 2)
          const listing = (yield* ok(["ls-tree", "-r", "-l", "-z", commit])).toString("utf8")
          const entries: Array<TreeEntry> = []
          for (const line of listing.split("\0")) {
            const match = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t([\s\S]+)$/.exec(line)
            if (match === null || match[2] !== "blob") continue
            entries.push({ path: match[5] as string, oid: match[3] as string, size: Number(match[4]) })
          }
          return Option.some({ commit, message, entries } satisfies Snapshot)
        })

      const read: GitSession["read"] = (entries) =>
        Effect.gen(function*() {
          if (entries.length === 0) return new Map()
          const output = yield* ok(["cat-file", "--batch"], { input: entries.map((e) => `${e.oid}\n`).join("") })
          const files = new Map<string, Uint8Array>()
          let at = 0
          for (const entry of entries) {
            const end = output.indexOf(0x0a, at)
            const header = output.subarray(at, end).toString("utf8").split(" ")
            const size = Number(header[2])
            if (header[1] !== "blob" || !Number.isFinite(size)) {
              return yield* new GitFailed({ reason: `the blob of ${entry.path} could not be read` })
            }
            files.set(entry.path, new Uint8Array(output.subarray(end + 1, end + 1 + size)))
            at = end + 1 + size + 1
          }
          return files
        })

      const commit: GitSession["commit"] = (input: CommitInput) =>
        Effect.gen(function*() {
          const index = { GIT_INDEX_FILE: path.join(dir, "index") }
          yield* ok(input.parent === null ? ["read-tree", "--empty"] : ["read-tree", input.parent], { env: index })
          const staged = path.join(dir, "staged")
          const written: Array<string> = []
          let n = 0
          for (const bytes of input.put.values()) {
            const file = path.join(staged, String(n++))
            yield* Effect.promise(() => fs.mkdir(staged, { recursive: true }).then(() => fs.writeFile(file, bytes)))
            written.push(file)
          }
          const oids = written.length === 0
            ? []
            : (yield* ok(["hash-object", "-w", "--no-filters", "--stdin-paths"], { input: `${written.join("\n")}\n` }))
              .toString("utf8").trim().split("\n")
          const lines: Array<string> = input.remove.filter((p) => !input.put.has(p)).map((p) =>
            `0 0000000000000000000000000000000000000000\t${p}\0`
          )
          Array.from(input.put.keys()).forEach((p, i) => lines.push(`100644 ${oids[i]}\t${p}\0`))
          if (lines.length > 0) yield* ok(["update-index", "-z", "--index-info"], { input: lines.join(""), env: index })
          const tree = (yield* ok(["write-tree"], { env: index })).toString("utf8").trim()
          if (input.parent !== null) {
            const before = (yield* ok(["rev-parse", `${input.parent}^{tree}`])).toString("utf8").trim()
            if (before === tree) return Option.none()
          }
          const who = {
            GIT_AUTHOR_NAME: input.author.name,
            GIT_AUTHOR_EMAIL: input.author.email,
            GIT_COMMITTER_NAME: input.committer.name,
            GIT_COMMITTER_EMAIL: input.committer.email
          }
          const args = ["commit-tree", tree, ...(input.parent === null ? [] : ["-p", input.parent])]
          const oid = (yield* ok(args, { input: input.message, env: who })).toString("utf8").trim()
          return Option.some(oid)
        })

      const push: GitSession["push"] = (oid, { force }) =>
        Effect.gen(function*() {
          const result = yield* git(["push", "--porcelain", "--no-verify", "--", target.url, `${force ? "+" : ""}${oid}:${remote.ref}`])
          if (result.code === 0) return
          const said = `${result.stdout.toString("utf8")}\n${result.stderr}`
          if (/\[rejected\]|non-fast-forward|fetch first|stale info/.test(said)) {
            return yield* new GitRejected({ reason: "the branch moved on (not a fast-forward)" })
          }
          return yield* new GitFailed({ reason: `git push failed: ${clean(said)}` })
        })

      return { fetch, read, commit, push } satisfies GitSession
    })

  return GitRepositories.of({
    check: (remote) =>
      Effect.asVoid(Effect.tryPromise({
        try: () => targetOf(remote, options),
        catch: (error) => error instanceof RemoteRefused ? error : refuse(String(error))
      })),
    open
  })
}

const basic = (remote: Remote) => Buffer.from(`${remote.username ?? ""}:${remote.password ?? ""}`, "utf8").toString("base64")

export const GitRepositoriesLive = (settings?: Partial<GitCliOptions>): Layer.Layer<GitRepositories> =>
  Layer.succeed(GitRepositories, makeGitRepositories(settings))
