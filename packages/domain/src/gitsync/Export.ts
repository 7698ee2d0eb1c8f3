import { Effect, Option } from "effect"
import type { File } from "../content/Page.js"
import { BlobStore } from "../content/Ports.js"
import { RevisionContents } from "../content/RevisionContents.js"
import type { FileId } from "../shared/Ids.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { configOf, contentRootOf, exportFiles, isReplaced } from "./Format.js"
import { GIT_LIMITS } from "./GitSync.js"
import { type Job, type Outcome, readProject } from "./GitSyncWork.js"
import { GitFailed, GitRepositories } from "./Ports.js"

/** The committer of every export (conventions-2.md §8 "Export"). */
export const OCTAVO_COMMITTER = { name: "Octavo", email: "octavo@localhost" } as const

/**
 * Runs one export (conventions-2.md §8 "Export"): the space's current content as one commit on the branch, by the
 * actor who asked, pushed; a branch that moved on meanwhile is fetched again once.
 */
export const makeExport = Effect.gen(function*() {
  const guard = yield* SpaceAccess
  const git = yield* GitRepositories
  const contents = yield* RevisionContents
  const blobs = yield* BlobStore

  return (job: Job) =>
    Effect.scoped(Effect.gen(function*() {
      const session = yield* git.open(job.remote)
      const proof = yield* guard.authorize(job.spaceId, "create", "sync this space with Git")
      const revisionContent = yield* contents.load(proof.space.revisionId)
      const bytes = new Map<FileId, Uint8Array>()
      for (const file of revisionContent.files.values()) {
        const found = yield* blobs.get(file.blobKey)
        bytes.set(file.id, Option.getOrElse(found, () => new Uint8Array()))
      }
      const bytesOf = (file: File) => bytes.get(file.id) ?? new Uint8Array()
      const attempt = (retried: boolean): Effect.Effect<Outcome, GitFailed> =>
        Effect.gen(function*() {
          const found = yield* session.fetch({ maxBytes: GIT_LIMITS.fetchBytes })
          const snapshot = Option.getOrUndefined(found)
          const project = snapshot === undefined
            ? { config: configOf(new Map(), job.projectDirectory), root: "" }
            : yield* readProject(session, snapshot, job.projectDirectory)
          const root = snapshot === undefined ? contentRootOf(job.projectDirectory, project.config) : project.root
          const put = yield* exportFiles(revisionContent, { projectDirectory: job.projectDirectory, config: project.config, bytesOf }).pipe(
            Effect.catchTag("Unreadable", ({ rule }) => new GitFailed({ reason: `A page of the space ${rule}` }))
          )
          const remove = (snapshot?.entries ?? []).filter((e) => isReplaced(e.path, root, project.config)).map((e) => e.path)
          const commit = yield* session.commit({
            parent: snapshot?.commit ?? null,
            remove,
            put,
            message: job.commitMessage,
            author: { name: job.actor.displayName, email: job.actor.email },
            committer: OCTAVO_COMMITTER
          })
          if (Option.isNone(commit)) return { commit: snapshot?.commit } satisfies Outcome
          const pushed = yield* Effect.either(session.push(commit.value, { force: job.force }))
          if (pushed._tag === "Right") return { commit: commit.value } satisfies Outcome
          if (pushed.left._tag === "GitFailed") return yield* pushed.left
          if (retried) return yield* new GitFailed({ reason: "The branch moved on twice while exporting (not a fast-forward)" })
          return yield* attempt(true)
        })
      return yield* attempt(false)
    }))
})
