import { Effect, Option } from "effect"
import { ContentFiles } from "../content/ContentFileService.js"
import type { ContentDelta, RevisionContent } from "../content/Page.js"
import { RevisionContents } from "../content/RevisionContents.js"
import { makeRevisions } from "../content/Revisions.js"
import { Conflict } from "../shared/Errors.js"
import type { FileId, PageId } from "../shared/Ids.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { importFiles, isRead, joinPath, sameContent } from "./Format.js"
import { GIT_LIMITS } from "./GitSync.js"
import { type Job, makeGitSyncWork, makeManifests, type Outcome, pathsOf, readProject } from "./GitSyncWork.js"
import { GitFailed, GitRepositories, GitSyncRepository } from "./Ports.js"
import { type GitRedirect, gitRedirectsOf } from "./Redirects.js"

/**
 * Runs one import (conventions-2.md §8 "Import"): fetches the branch, reads the project within GIT_LIMITS and
 * records its files as one revision of the space (made current unless standalone). A commit already imported or
 * exported, or a content the space already has, changes nothing unless forced.
 */
export const makeImport = Effect.gen(function*() {
  const guard = yield* SpaceAccess
  const states = yield* GitSyncRepository
  const git = yield* GitRepositories
  const uow = yield* UnitOfWork
  const contents = yield* RevisionContents
  const contentFiles = yield* ContentFiles
  const written = yield* makeRevisions
  const secrets = yield* Secrets
  const { report, stateOf } = yield* makeGitSyncWork
  const manifests = yield* makeManifests

  /** `.gitbook.yaml`'s redirects (issue 39) go with the space's sync state, whether or not the pages changed. */
  const keepRedirects = (spaceId: Job["spaceId"], redirects: ReadonlyArray<GitRedirect>) =>
    Effect.gen(function*() {
      yield* states.lock(spaceId)
      const current = yield* states.find(spaceId)
      if (Option.isNone(current)) return
      const { redirects: _, ...rest } = current.value
      yield* states.save(redirects.length > 0 ? { ...rest, redirects } : rest)
    })

  return (job: Job) =>
    Effect.scoped(Effect.gen(function*() {
      const session = job.session ?? (yield* git.open(job.remote))
      yield* report(job.spaceId, "repo_fetch")
      const found = yield* session.fetch({ maxBytes: GIT_LIMITS.fetchBytes })
      if (Option.isNone(found)) return yield* new GitFailed({ reason: `The branch ${job.remote.ref} does not exist` })
      const snapshot = found.value
      const state = yield* stateOf(job.spaceId)
      if (!job.force && (snapshot.commit === state?.exportedCommit || snapshot.commit === state?.importedCommit)) {
        return { commit: snapshot.commit } satisfies Outcome
      }
      yield* report(job.spaceId, "config_check")
      const { config, root } = yield* readProject(session, snapshot, job.projectDirectory)
      const wanted = snapshot.entries.filter((e) => isRead(e.path, job.projectDirectory, root, config))
      if (wanted.length > GIT_LIMITS.files) {
        return yield* new GitFailed({ reason: `The project holds more than ${GIT_LIMITS.files} files`, tooLarge: true })
      }
      const large = wanted.find((e) => e.size > GIT_LIMITS.fileBytes)
      if (large !== undefined) {
        return yield* new GitFailed({ reason: `${large.path} is larger than ${GIT_LIMITS.fileBytes} bytes`, tooLarge: true })
      }
      if (wanted.reduce((sum, e) => sum + e.size, 0) > GIT_LIMITS.totalBytes) {
        return yield* new GitFailed({ reason: `The project's files add up to more than ${GIT_LIMITS.totalBytes} bytes`, tooLarge: true })
      }
      yield* report(job.spaceId, "content_process")
      const files = yield* session.read(wanted)
      const blobKeys = new Map<string, string>()
      for (const [path, bytes] of files) {
        if (/(^|\/)\.gitbook\/(assets|includes)\//.test(path)) blobKeys.set(path, yield* contentFiles.storeBlob(bytes))
      }
      const oids = new Map(wanted.map((e) => [e.path, e.oid] as const))
      const prefix = yield* secrets.newId
      let counter = 0
      const proof = yield* guard.authorize(job.spaceId, "create", "sync this space with Git")
      const at = yield* now
      const read = (base: RevisionContent) =>
        importFiles(files, {
          projectDirectory: job.projectDirectory,
          base,
          newId: () => `${prefix}${(counter++).toString(36)}`,
          blobKeys,
          oids,
          now: at,
          progress: (done, total) => report(job.spaceId, "content_process", { done, total })
        }).pipe(Effect.catchTag("Unreadable", ({ rule }) => new GitFailed({ reason: `A page of the repository ${rule}` })))
      // Read before the transaction, on the space's content as it was authorized, so that the storage is not held
      // while thousands of pages are read; read again inside it only if the space changed meanwhile.
      const readBase = yield* contents.load(proof.space.revisionId)
      const readTarget = yield* read(readBase)
      yield* report(job.spaceId, "finalize")
      const imported = yield* uow.transaction(Effect.gen(function*() {
        const space = yield* guard.lockForChange(proof)
        if (!job.standalone && space.editMode === "locked") {
          return yield* new Conflict({ reason: "The space is locked: nothing can be imported into it" })
        }
        if (!job.standalone) yield* keepRedirects(job.spaceId, gitRedirectsOf(config, root))
        const unchanged = space.revisionId === proof.space.revisionId
        const base = unchanged ? readBase : yield* contents.load(space.revisionId)
        const target = unchanged ? readTarget : yield* read(base)
        if (!job.force && sameContent(target, base)) return { outcome: { commit: snapshot.commit } satisfies Outcome, target }
        const delta = deltaOf(base, target)
        const revision = yield* written.record(proof, [space.revisionId], "edits", at, { on: space.revisionId, delta, content: target })
        if (!job.standalone) yield* written.activate(space, revision, base, target, delta)
        yield* states.saveRevision({
          revisionId: revision.id,
          spaceId: space.id,
          oid: snapshot.commit,
          message: snapshot.message,
          createdByService: snapshot.commit === state?.exportedCommit,
          ...(job.commitURL !== undefined ? { url: `${job.commitURL}${snapshot.commit}` } : {}),
          ref: job.remote.ref
        })
        return { outcome: { revision: revision.id, commit: snapshot.commit } satisfies Outcome, target }
      }))
      if (job.standalone) return imported.outcome
      // What the branch now holds of Octavo's: the files this content came from.
      const manifest = yield* manifests.store(pathsOf(imported.target, joinPath(root, config.summary)))
      return { ...imported.outcome, manifest } satisfies Outcome
    }))
})

/** What the import changes relative to the base: page and file versions that are not the base's own. */
const deltaOf = (base: RevisionContent, target: RevisionContent): ContentDelta => ({
  pages: Array.from(target.pages.values()).filter((p) => base.pages.get(p.id) !== p),
  deletedPages: Array.from(base.pages.keys()).filter((id: PageId) => !target.pages.has(id)),
  files: Array.from(target.files.values()).filter((f) => base.files.get(f.id) !== f),
  deletedFiles: Array.from(base.files.keys()).filter((id: FileId) => !target.files.has(id))
})
