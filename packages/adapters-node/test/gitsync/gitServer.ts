// A Git smart-HTTP server on loopback for the tests: `git http-backend` behind node:http, with basic auth.
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"

export interface GitServer {
  /** `http://user:password@127.0.0.1:<port>/<name>.git` */
  readonly url: (name: string, credentials?: { readonly user: string; readonly password: string } | null) => string
  /** A new bare repository under the root. */
  readonly create: (name: string) => string
  /** Runs git in a bare repository of the server (to read what a push wrote, or to write a commit). */
  readonly git: (name: string, args: ReadonlyArray<string>, input?: string) => string
  /** Every request line seen, to check that no credential travelled in a URL. */
  readonly requests: Array<string>
  /** Holds every request until the returned function is called (to keep an operation running while others queue). */
  readonly hold: () => () => void
  readonly root: string
  readonly close: () => Promise<void>
}

export const USER = "octo"
export const PASSWORD = "s3cr3t-pa55"

/** The test's own git commands: no system or user configuration, a fixed author and committer. */
const testerEnvironment = {
  PATH: process.env["PATH"] ?? "/usr/bin:/bin",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Tester",
  GIT_AUTHOR_EMAIL: "tester@example.com",
  GIT_COMMITTER_NAME: "Tester",
  GIT_COMMITTER_EMAIL: "tester@example.com"
}

/** Where this git keeps its helper programs (`/usr/lib/git-core` on Debian). */
const backend = path.join(execFileSync("git", ["--exec-path"], { encoding: "utf8" }).trim(), "git-http-backend")

export const startGitServer = async (): Promise<GitServer> => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "octavo-git-server-"))
  const requests: Array<string> = []
  let gate: Promise<void> = Promise.resolve()
  const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`
  const server = http.createServer((request, response) => {
    request.pause()
    void gate.then(() => serve(request, response))
  })
  const serve = (request: http.IncomingMessage, response: http.ServerResponse) => {
    request.resume()
    requests.push(`${request.method} ${request.url}`)
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { "www-authenticate": "Basic realm=\"git\"" })
      response.end("authentication required")
      return
    }
    const url = new URL(request.url ?? "/", "http://localhost")
    const child = spawn(backend, [], {
      env: {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        REQUEST_METHOD: request.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers["content-type"] ?? "",
        HTTP_CONTENT_ENCODING: request.headers["content-encoding"] ?? "",
        HTTP_GIT_PROTOCOL: String(request.headers["git-protocol"] ?? ""),
        REMOTE_USER: USER,
        REMOTE_ADDR: "127.0.0.1"
      }
    })
    request.pipe(child.stdin)
    const chunks: Array<Buffer> = []
    child.stdout.on("data", (c: Buffer) => chunks.push(c))
    child.stderr.on("data", () => undefined)
    child.on("close", () => {
      const output = Buffer.concat(chunks)
      const split = output.indexOf("\r\n\r\n")
      const head = output.subarray(0, split < 0 ? 0 : split).toString("latin1")
      let status = 200
      const headers: Record<string, string> = {}
      for (const line of head.split("\r\n")) {
        const colon = line.indexOf(":")
        if (colon < 0) continue
        const name = line.slice(0, colon).trim()
        const value = line.slice(colon + 1).trim()
        if (name.toLowerCase() === "status") status = Number(value.split(" ")[0])
        else headers[name] = value
      }
      response.writeHead(status, headers)
      response.end(output.subarray(split < 0 ? 0 : split + 4))
    })
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  const run = (cwd: string, args: ReadonlyArray<string>, input?: string) =>
    execFileSync("git", args, {
      cwd,
      input: input ?? "",
      env: {
        ...testerEnvironment,
        HOME: root
      }
    }).toString("utf8")
  return {
    root,
    requests,
    hold: () => {
      let release = () => {}
      gate = new Promise<void>((resolve) => {
        release = resolve
      })
      return release
    },
    url: (name, credentials) => {
      const auth = credentials === null
        ? ""
        : `${encodeURIComponent(credentials?.user ?? USER)}:${encodeURIComponent(credentials?.password ?? PASSWORD)}@`
      return `http://${auth}127.0.0.1:${port}/${name}.git`
    },
    create: (name) => {
      const dir = path.join(root, `${name}.git`)
      run(root, ["init", "--bare", "-q", "-b", "main", dir])
      run(dir, ["config", "http.receivepack", "true"])
      return dir
    },
    git: (name, args, input) => run(path.join(root, `${name}.git`), args, input),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
        fs.rmSync(root, { recursive: true, force: true })
      })
  }
}

/** Writes `files` as one commit on `ref` of a bare repository of the server, through a scratch work tree. */
export const commitFiles = (
  server: GitServer,
  name: string,
  files: ReadonlyMap<string, Uint8Array | string>,
  message: string,
  ref = "refs/heads/main"
): string => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "octavo-git-work-"))
  try {
    for (const [file, bytes] of files) {
      fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true })
      fs.writeFileSync(path.join(work, file), bytes)
    }
    const env = { GIT_WORK_TREE: work, GIT_INDEX_FILE: path.join(work, "..", `${path.basename(work)}.index`) }
    const git = (args: ReadonlyArray<string>, input?: string) =>
      execFileSync("git", args, {
        cwd: work,
        input: input ?? "",
        env: {
          ...testerEnvironment,
          GIT_DIR: path.join(server.root, `${name}.git`),
          ...env
        }
      }).toString("utf8").trim()
    git(["add", "-A", "."])
    const tree = git(["write-tree"])
    let parent: string | undefined
    try {
      parent = git(["rev-parse", "--verify", "-q", ref])
    } catch {
      parent = undefined
    }
    const commit = git(["commit-tree", tree, ...(parent ? ["-p", parent] : [])], message)
    git(["update-ref", ref, commit])
    fs.rmSync(env.GIT_INDEX_FILE, { force: true })
    return commit
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}
