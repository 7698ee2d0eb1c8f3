/**
 * What a team meets when it connects an existing GitBook-synced repository: the repository at a path on this machine
 * (any clone, bare or not; blobs a partial clone lacks are left out) is served on loopback as one commit, imported into a space (per project directory given),
 * and exported back onto its own branch with nothing edited. Prints, per project directory: the pages and files
 * imported, the files the untouched export changed (with git's name-status), and the pages whose file came back
 * byte for byte. Run with `pnpm git:roundtrip <repository> [project directory…]`; nothing is written to the repository.
 * With `--site [project directory]`, the whole site is imported from the project's `docs.yaml` (site-level Git Sync)
 * and exported back untouched: prints the sections, groups and spaces made, each space's pages, and what changed.
 */
import { execFileSync } from "node:child_process"
import { commitFiles, startGitServer } from "@octavo/adapters-node/gitServer"
import {
  Actor,
  Content,
  GitSync,
  GitSyncQueue,
  GitSyncRepository,
  Identity,
  Organizations,
  SiteGitSync,
  Sites,
  SiteSections,
  Spaces
} from "@octavo/domain"
import { Context, Effect, Logger, LogLevel, Option } from "effect"
import { gitSyncServices } from "./gitSyncServices.js"

const ADMIN = "roundtrip-admin-token"

/** The files of a repository's HEAD, by path; blobs the clone does not hold (a partial clone's) are left out. */
const filesOf = (repository: string): Map<string, Uint8Array> => {
  const listed = execFileSync("git", ["-C", repository, "ls-tree", "-r", "-z", "--full-tree", "HEAD"], { maxBuffer: 1 << 30 })
    .toString("utf8").split("\0").filter((line) => line !== "").flatMap((line) => {
      const [meta, path] = line.split("\t")
      const [, type, oid] = (meta ?? "").split(" ")
      return type === "blob" && path !== undefined && oid !== undefined ? [{ path, oid }] : []
    })
  const output = execFileSync("git", ["-C", repository, "cat-file", "--batch"], {
    input: listed.map((entry) => entry.oid).join("\n") + "\n",
    maxBuffer: 2 ** 31
  })
  const files = new Map<string, Uint8Array>()
  let at = 0
  for (const entry of listed) {
    const end = output.indexOf(10, at)
    const header = output.subarray(at, end).toString("utf8").split(" ")
    at = end + 1
    if (header[1] === "missing") continue
    const size = Number(header[2])
    files.set(entry.path, new Uint8Array(output.subarray(at, at + size)))
    at += size + 1
  }
  return files
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

/** The repository's HEAD served on loopback as one commit, and an organization on memory to import it into. */
const setUp = (repository: string) =>
  Effect.gen(function*() {
    const server = yield* Effect.acquireRelease(Effect.promise(startGitServer), (s) => Effect.promise(s.close))
    server.create("repo")
    const files = filesOf(repository)
    const head = commitFiles(server, "repo", files, "The repository as it is")
    process.stdout.write(`${repository}: ${files.size} files at HEAD\n`)
    const services = yield* gitSyncServices({ _tag: "memory" }, "roundtrip")
    const admin = yield* Context.get(services, Identity).bootstrapInstanceAdmin(ADMIN)
    const as = Effect.provideService(Actor, admin)
    const { organization } = yield* as(Context.get(services, Organizations).create({ title: "Round trip" }))
    return { as, head, organization, server, services }
  })

const program = (repository: string, directories: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { as, head, organization, server, services } = yield* setUp(repository)
    const gitSync = Context.get(services, GitSync)
    const queue = Context.get(services, GitSyncQueue)
    for (const [index, directory] of directories.entries()) {
      const branch = `refs/heads/project-${index}`
      server.git("repo", ["branch", `project-${index}`, head])
      const { space } = yield* as(Context.get(services, Spaces).create(organization.id, { title: `Project ${index}` }))
      const remote = { url: server.url("repo"), ref: branch, ...(directory === "" ? {} : { repoProjectDirectory: directory }) }
      const importedAt = performance.now()
      yield* as(gitSync.importRepository(space.id, remote))
      yield* queue.settled(space.id)
      const imported = yield* as(gitSync.info(space.id))
      if (imported.operation?.state !== "success") throw new Error(`import failed: ${imported.operation?.error}`)
      const importTook = seconds(importedAt)
      const content = (yield* as(Context.get(services, Content).current(space.id))).content
      const redirects = Option.match(yield* Context.get(services, GitSyncRepository).find(space.id), {
        onNone: () => [],
        onSome: (state) => state.redirects ?? []
      })
      const pagePaths = new Set(Array.from(content.pages.values(), (p) => p.git?.path))
      const answered = redirects.filter((r) => pagePaths.has(r.target)).length
      const exportedAt = performance.now()
      yield* as(gitSync.exportRepository(space.id, { ...remote, commitMessage: "Untouched export" }))
      yield* queue.settled(space.id)
      const exported = yield* as(gitSync.info(space.id))
      if (exported.operation?.state !== "success") throw new Error(`export failed: ${exported.operation?.error}`)
      const exportTook = seconds(exportedAt)
      const after = server.git("repo", ["rev-parse", branch]).trim()
      const changed = after === head
        ? []
        : server.git("repo", ["diff", "--name-status", head, after]).trim().split("\n").filter((l) => l !== "")
      const pages = Array.from(content.pages.values())
      const documents = pages.filter((p) => p.kind === "document" && p.git !== undefined)
      const changedPaths = new Set(changed.map((line) => line.split("\t").at(-1)))
      const identical = documents.filter((p) => !changedPaths.has(p.git?.path)).length
      process.stdout.write(
        `\nproject directory "${directory}": ${pages.length} pages (${documents.length} from files, ` +
          `${pages.filter((p) => p.kind === "link").length} links, ${pages.filter((p) => p.kind === "group").length} groups), ` +
          `${content.files.size} files; import ${importTook}, export ${exportTook}\n` +
          `  .gitbook.yaml redirects: ${redirects.length}, of which ${answered} lead to a page (301 on a published site)\n` +
          `  untouched export: ${after === head ? "no commit" : `a commit changing ${changed.length} files`}\n` +
          `  page files written back byte for byte: ${identical} of ${documents.length}\n`
      )
      for (const line of changed.slice(0, 40)) process.stdout.write(`    ${line}\n`)
    }
  }).pipe(Effect.scoped)

/** The whole site of a project's `docs.yaml`, imported and exported back untouched. */
const siteProgram = (repository: string, directory: string) =>
  Effect.gen(function*() {
    const { as, head, organization, server, services } = yield* setUp(repository)
    const site = yield* as(Context.get(services, Sites).create(organization.id, { title: "Round trip" }))
    const siteId = site.site.id
    const sync = Context.get(services, SiteGitSync)
    const remote = { url: server.url("repo"), ref: "refs/heads/main", ...(directory === "" ? {} : { repoProjectDirectory: directory }) }
    const importedAt = performance.now()
    yield* as(sync.importSite(siteId, remote))
    yield* sync.settled(siteId)
    const imported = yield* as(sync.info(siteId))
    if (imported.operation?.state !== "success") throw new Error(`import failed: ${imported.operation?.error}`)
    const importTook = seconds(importedAt)
    const tree = yield* as(Context.get(services, SiteSections).structureFor(siteId, "measure"))
    process.stdout.write(
      `site "${tree.site.title}": ${tree.sections.length} sections, ${tree.groups.length} section groups, ` +
        `${tree.siteSpaces.length} site spaces over ${new Set(tree.siteSpaces.map((s) => s.spaceId)).size} spaces; import ${importTook}\n`
    )
    for (const spaceId of new Set(tree.siteSpaces.map((s) => s.spaceId))) {
      const content = (yield* as(Context.get(services, Content).current(spaceId))).content
      const paths = tree.siteSpaces.filter((s) => s.spaceId === spaceId).map((s) => s.path)
      process.stdout.write(`  space at ${paths.join(", ")}: ${content.pages.size} pages, ${content.files.size} files\n`)
    }
    const exportedAt = performance.now()
    yield* as(sync.exportSite(siteId, { ...remote, commitMessage: "Untouched export" }))
    yield* sync.settled(siteId)
    const exported = yield* as(sync.info(siteId))
    if (exported.operation?.state !== "success") throw new Error(`export failed: ${exported.operation?.error}`)
    const after = server.git("repo", ["rev-parse", "main"]).trim()
    const changed = after === head
      ? []
      : server.git("repo", ["diff", "--name-status", head, after]).trim().split("\n").filter((l) => l !== "")
    process.stdout.write(
      `untouched export (${seconds(exportedAt)}): ${after === head ? "no commit" : `commits changing ${changed.length} files`}\n`
    )
    for (const line of changed.slice(0, 40)) process.stdout.write(`    ${line}\n`)
  }).pipe(Effect.scoped)

const [repository, ...rest] = process.argv.slice(2)
if (repository === undefined) {
  process.stderr.write("usage: git:roundtrip <repository> [project directory…] | <repository> --site [project directory]\n")
  process.exit(2)
}
const site = rest[0] === "--site"
const directories = site ? rest.slice(1) : rest
Effect.runPromise(
  (site ? siteProgram(repository, directories[0] ?? "") : program(repository, directories.length === 0 ? [""] : directories)).pipe(
    Effect.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
