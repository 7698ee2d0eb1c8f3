import { Effect, Option } from "effect"
import type { File } from "../content/Page.js"
import { BlobStore } from "../content/Ports.js"
import { RevisionContents } from "../content/RevisionContents.js"
import type { FileId } from "../shared/Ids.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { writeGitbookConfig } from "@octavo/markdown"
import { configOf, contentRootOf, exportFiles, joinPath, pageFilesOf } from "./Format.js"
import { GIT_LIMITS } from "./GitSync.js"
import { type Job, makeGitSyncWork, makeManifests, type Outcome, pathsOf, readProject } from "./GitSyncWork.js"
import { GitFailed, GitRepositories } from "./Ports.js"

/** The committer of every export (conventions-2.md §8 "Export"). */
const encoder = new TextEncoder()

export const OCTAVO_COMMITTER = { name: "Octavo", email: "octavo@localhost" } as const

/**
 * Runs one export (conventions-2.md §8 "Export"): the space's current content as one commit on the branch, by the
 * actor who asked, pushed; a branch that moved on meanwhile is fetched again once. The branch's page files and
 * SUMMARY.md are patched rather than written anew, so that an export changes exactly what the content changed; it
 * deletes only the files Octavo owns there (the manifest) that its content no longer holds.
 */
export const makeExport = Effect.gen(function*() {
  const guard = yield* SpaceAccess
  const git = yield* GitRepositories
  const contents = yield* RevisionContents
  const blobs = yield* BlobStore
  const { report, stateOf } = yield* makeGitSyncWork
  const manifests = yield* makeManifests

  return (job: Job) =>
    Effect.scoped(Effect.gen(function*() {
      const session = job.session ?? (yield* git.open(job.remote))
      const proof = yield* guard.authorize(job.spaceId, "create", "sync this space with Git")
      const revisionContent = yield* contents.load(proof.space.revisionId)
      const bytes = new Map<FileId, Uint8Array>()
      const load = (file: File) =>
        Effect.map(blobs.get(file.blobKey), (found) => {
          const loaded = Option.getOrElse(found, () => new Uint8Array())
          bytes.set(file.id, loaded)
          return loaded
        })
      const state = yield* stateOf(job.spaceId)
      const recorded = yield* manifests.read(state)
      const attempt = (retried: boolean): Effect.Effect<Outcome, GitFailed> =>
        Effect.gen(function*() {
          yield* report(job.spaceId, "repo_fetch")
          const found = yield* session.fetch({ maxBytes: GIT_LIMITS.fetchBytes })
          const snapshot = Option.getOrUndefined(found)
          const project = snapshot === undefined
            ? { config: configOf(new Map(), job.projectDirectory), root: "" }
            : yield* readProject(session, snapshot, job.projectDirectory)
          const root = snapshot === undefined ? contentRootOf(job.projectDirectory, project.config) : project.root
          const summaryPath = joinPath(root, project.config.summary)
          // Octavo owns what its manifest names and what its content came from (a sync older than manifests).
          const owned = new Set([...recorded, ...pathsOf(revisionContent, summaryPath)])
          const entries = snapshot?.entries ?? []
          const paths = new Set(entries.map((e) => e.path))
          const patched = new Set([...pageFilesOf(paths, root, project.config).filter((p) => owned.has(p)), summaryPath])
          yield* report(job.spaceId, "content_process")
          const texts = yield* session.read(entries.filter((e) => patched.has(e.path)))
          // A file the branch holds as it was imported (same path, same blob) is not read nor written again: an
          // export's cost follows what changed, not the size of the assets.
          const oidAt = new Map(entries.map((e) => [e.path, e.oid] as const))
          const held = new Map<FileId, Uint8Array>()
          for (const file of revisionContent.files.values()) {
            if (file.git !== undefined && file.git.oid !== "" && oidAt.get(file.git.path) === file.git.oid) {
              held.set(file.id, new Uint8Array())
            } else if (!bytes.has(file.id)) yield* load(file)
          }
          const bytesOf = (file: File) => held.get(file.id) ?? bytes.get(file.id) ?? new Uint8Array()
          const written = yield* exportFiles(revisionContent, {
            projectDirectory: job.projectDirectory,
            config: project.config,
            bytesOf,
            branch: { paths, owned, texts }
          }).pipe(Effect.catchTag("Unreadable", ({ rule }) => new GitFailed({ reason: `A page of the space ${rule}` })))
          const put = new Map<string, Uint8Array>()
          const kept = new Set<string>()
          const heldAt = new Map<Uint8Array, File>()
          for (const file of revisionContent.files.values()) {
            const marker = held.get(file.id)
            if (marker !== undefined) heldAt.set(marker, file)
          }
          for (const [path, value] of written) {
            const file = heldAt.get(value)
            if (file === undefined) put.set(path, value)
            else if (path === file.git?.path) kept.add(path)
            else put.set(path, bytes.get(file.id) ?? (yield* load(file)))
          }
          const configPath = joinPath(job.projectDirectory, ".gitbook.yaml")
          // A new branch gets GitBook's configuration spelled out, with the redirects the space's last import read.
          const prefix = root === "" ? "" : `${root}/`
          const redirects = (state?.redirects ?? []).flatMap(({ source, target }) =>
            target.startsWith(prefix) ? [{ source, target: target.slice(prefix.length) }] : []
          )
          const extra = snapshot === undefined
            ? new Map([[configPath, encoder.encode(writeGitbookConfig({ ...project.config, redirects }))]])
            : new Map<string, Uint8Array>()
          const remove = entries.filter((e) => owned.has(e.path) && !put.has(e.path) && !kept.has(e.path)).map((e) => e.path)
          yield* report(job.spaceId, "finalize")
          const manifest = yield* manifests.store([...put.keys(), ...kept])
          const commit = yield* session.commit({
            parent: snapshot?.commit ?? null,
            remove,
            put: new Map([...extra, ...put]),
            message: job.commitMessage,
            author: { name: job.actor.displayName, email: job.actor.email },
            committer: OCTAVO_COMMITTER
          })
          if (Option.isNone(commit)) return { commit: snapshot?.commit, manifest } satisfies Outcome
          const pushed = yield* Effect.either(session.push(commit.value, { force: job.force }))
          if (pushed._tag === "Right") return { commit: commit.value, manifest } satisfies Outcome
          if (pushed.left._tag === "GitFailed") return yield* pushed.left
          if (retried) return yield* new GitFailed({ reason: "The branch moved on twice while exporting (not a fast-forward)" })
          return yield* attempt(true)
        })
      return yield* attempt(false)
    }))
})
