import { Cause, Duration, Effect, Exit, Option } from "effect"
import { ContentFiles } from "../content/ContentFileService.js"
import type { ContentDelta, File, RevisionContent } from "../content/Page.js"
import { BlobStore } from "../content/Ports.js"
import { RevisionContents } from "../content/RevisionContents.js"
import { makeRevisions } from "../content/Revisions.js"
import { Actor } from "../identity/Actor.js"
import type { User } from "../identity/User.js"
import { Conflict, InvalidInput, NotFound } from "../shared/Errors.js"
import type { FileId, PageId, RevisionId, SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { configOf, contentRootOf, exportFiles, importFiles, isRead, isReplaced, joinPath, sameContent } from "./Format.js"
import {
  ABANDONED_AFTER_MS,
  type Direction,
  ExportGitInput,
  GIT_LIMITS,
  type GitOperation,
  type GitSyncState,
  ImportGitInput,
  isShown,
  MAX_QUEUED,
  normalizeDirectory,
  OPERATION_TIMEOUT_MS,
  redact,
  type Remote,
  remoteOf,
  repoNameOf
} from "./GitSync.js"
import { GitFailed, GitRepositories, type GitSession, GitSyncRepository, ServerInstance, type Snapshot } from "./Ports.js"

/** The committer of every export (conventions-2.md §8 "Export"). */
export const OCTAVO_COMMITTER = { name: "Octavo", email: "octavo@localhost" } as const

/** An operation accepted and waiting for its turn; its credentials live only here, in memory. */
interface Job {
  readonly spaceId: SpaceId
  readonly direction: Direction
  readonly remote: Remote
  readonly timestamp: Date
  readonly force: boolean
  readonly standalone: boolean
  readonly projectDirectory: string
  readonly commitURL: string | undefined
  readonly commitMessage: string
  readonly actor: User
  readonly startedAt: Date
}

/** What an operation ended with, before it is recorded. */
interface Outcome {
  readonly revision?: RevisionId | undefined
  readonly commit?: string | undefined
}

/** Failure sentences of an operation: Git's (already redacted) and the domain's. */
const sentenceOf = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.failureOption(cause)
  if (Option.isNone(failure)) return "The operation stopped on an internal error"
  const error = failure.value as { readonly _tag?: string; readonly reason?: string; readonly message?: string }
  return error.reason ?? error.message ?? String(failure.value)
}

/** Git Sync (conventions-2.md §8): queued imports and exports, one at a time per space, and their state. */
export class GitSync extends Effect.Service<GitSync>()("@octavo/domain/GitSync", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const states = yield* GitSyncRepository
    const git = yield* GitRepositories
    const uow = yield* UnitOfWork
    const contents = yield* RevisionContents
    const blobs = yield* BlobStore
    const contentFiles = yield* ContentFiles
    const written = yield* makeRevisions
    const secrets = yield* Secrets
    const instance = yield* ServerInstance

    // The queue of each space on this instance; a fiber drains it, one operation at a time.
    const queues = new Map<SpaceId, { jobs: Array<Job>; running: boolean }>()
    // Places held by requests between their check and their job's arrival in the queue.
    const reserved = new Map<SpaceId, number>()

    const stateOf = (spaceId: SpaceId) => Effect.map(states.find(spaceId), Option.getOrUndefined)

    const record = (spaceId: SpaceId, change: (state: GitSyncState) => GitSyncState) =>
      uow.transaction(Effect.gen(function*() {
        yield* states.lock(spaceId)
        const at = yield* now
        const current = (yield* stateOf(spaceId)) ?? { spaceId, updatedAt: at }
        yield* states.save(change(current))
      }))

    /** Checks a request and the remote, then queues it (or answers that a newer one was accepted). */
    const accept = (
      spaceId: SpaceId,
      direction: Direction,
      job: Omit<Job, "actor" | "startedAt" | "remote" | "timestamp" | "spaceId" | "direction">,
      input: {
        readonly url: string
        readonly ref: string
        readonly timestamp?: Date | undefined
        readonly repoTreeURL?: string | undefined
        readonly gitInfo?: { readonly provider?: string | undefined; readonly url?: string | undefined } | undefined
      }
    ) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        const proof = yield* guard.authorize(spaceId, "create", "sync this space with Git")
        if (direction === "import" && !job.standalone && proof.space.editMode === "locked") {
          return yield* new Conflict({ reason: "The space is locked: nothing can be imported into it" })
        }
        const remote = remoteOf(input.url, input.ref)
        yield* Effect.mapError(git.check(remote), (e) => new InvalidInput({ field: "url", rule: `cannot be reached: ${e.reason}` }))
        const at = yield* now
        const timestamp = input.timestamp ?? at
        // A place in the queue is held from the check until the job is in the queue: requests whose transactions
        // interleave (PostgreSQL) would otherwise all see the same free places.
        let holding = false
        const release = () => {
          if (!holding) return
          holding = false
          const left = (reserved.get(spaceId) ?? 1) - 1
          if (left <= 0) reserved.delete(spaceId)
          else reserved.set(spaceId, left)
        }
        const record = uow.transaction(Effect.gen(function*() {
          yield* states.lock(spaceId)
          const state = yield* stateOf(spaceId)
          // An older event than one already accepted is answered and dropped (a 409 would make webhooks retry).
          if (!job.force && !job.standalone && state?.timestamp !== undefined && timestamp < state.timestamp) return false
          const waiting = (queues.get(spaceId)?.jobs.length ?? 0) + (reserved.get(spaceId) ?? 0)
          if (waiting >= MAX_QUEUED) {
            return yield* new Conflict({ reason: `More than ${MAX_QUEUED} Git Sync operations are queued for this space` })
          }
          if (!holding) reserved.set(spaceId, (reserved.get(spaceId) ?? 0) + 1)
          holding = true
          const recorded = direction === "export" && job.standalone
          if (!recorded) {
            const base: GitSyncState = state ?? { spaceId, updatedAt: at }
            const operation: GitOperation = { state: "running", direction, startedAt: at, owner: instance }
            const synced = job.standalone ? base : {
              ...base,
              repoName: repoNameOf(remote.url),
              installationProvider: input.gitInfo?.provider ?? base.installationProvider,
              url: input.gitInfo?.url ?? input.repoTreeURL ?? remote.url,
              updatedAt: at,
              timestamp: state?.timestamp !== undefined && state.timestamp > timestamp ? state.timestamp : timestamp
            }
            yield* states.save({ ...synced, operation })
          }
          return true
        })).pipe(Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.sync(release))))
        // Uninterruptible from the transaction to the queue, so that a held place is never left held; the held
        // place becomes the job in one synchronous step.
        const start = yield* Effect.uninterruptible(Effect.flatMap(record, (queued) =>
          Effect.sync(() => {
            release()
            if (!queued) return false
            const entry = queues.get(spaceId) ?? { jobs: [], running: false }
            queues.set(spaceId, entry)
            entry.jobs.push({ ...job, spaceId, direction, remote, timestamp, actor, startedAt: at })
            entry.jobs.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime())
            if (entry.running) return false
            entry.running = true
            return true
          })))
        if (start) yield* Effect.forkDaemon(drain(spaceId))
      })

    /** Runs the space's queued operations in timestamp order until none is left. */
    const drain = (spaceId: SpaceId): Effect.Effect<void> =>
      Effect.gen(function*() {
        for (;;) {
          const entry = queues.get(spaceId)
          const job = entry?.jobs.shift()
          if (entry === undefined || job === undefined) {
            queues.delete(spaceId)
            return
          }
          yield* runJob(job)
        }
      })

    const runJob = (job: Job): Effect.Effect<void> =>
      Effect.gen(function*() {
        const recorded = !(job.direction === "export" && job.standalone)
        const startedAt = yield* now
        if (recorded) {
          yield* record(job.spaceId, (s) => ({
            ...s,
            operation: { state: "running", direction: job.direction, startedAt, owner: instance }
          }))
        }
        const work: Effect.Effect<Outcome, unknown, Actor> = job.direction === "import" ? runImport(job) : runExport(job)
        const exit = yield* Effect.exit(
          work.pipe(
            Effect.provideService(Actor, job.actor),
            Effect.timeoutFail({
              duration: Duration.millis(OPERATION_TIMEOUT_MS),
              onTimeout: () => new GitFailed({ reason: "The operation timed out", timedOut: true })
            })
          )
        )
        if (!recorded) return
        const endedAt = yield* now
        const secretsOf = [job.remote.password, job.remote.username]
        yield* record(job.spaceId, (s) => {
          if (Exit.isSuccess(exit)) {
            const outcome = exit.value
            return {
              ...s,
              operation: {
                state: "success",
                direction: job.direction,
                startedAt,
                endedAt,
                ...(outcome.revision !== undefined ? { revision: outcome.revision } : {}),
                ...(outcome.commit !== undefined ? { commit: outcome.commit } : {})
              },
              ...(job.direction === "export" && outcome.commit !== undefined ? { exportedCommit: outcome.commit } : {}),
              ...(job.direction === "import" && outcome.commit !== undefined && !job.standalone ? { importedCommit: outcome.commit } : {})
            }
          }
          const failure = Cause.failureOption(exit.cause)
          const timedOut = Option.isSome(failure) && (failure.value as { timedOut?: boolean }).timedOut === true
          return {
            ...s,
            operation: {
              state: timedOut ? "timeout" : "failure",
              direction: job.direction,
              startedAt,
              endedAt,
              error: redact(sentenceOf(exit.cause), secretsOf).slice(0, 1000)
            }
          }
        })
        if (Exit.isFailure(exit) && Option.isNone(Cause.failureOption(exit.cause))) {
          yield* Effect.logError("Git Sync operation failed", Cause.map(exit.cause, () => "redacted"))
        }
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("Git Sync could not record an operation", cause)))

    /** The files of a snapshot an import or an export reads, within GIT_LIMITS. */
    const readProject = (session: GitSession, snapshot: Snapshot, projectDirectory: string) =>
      Effect.gen(function*() {
        const configEntry = snapshot.entries.find((e) => e.path === joinPath(projectDirectory, ".gitbook.yaml"))
        const configFiles = configEntry === undefined ? new Map<string, Uint8Array>() : yield* session.read([configEntry])
        const config = configOf(configFiles, projectDirectory)
        const root = contentRootOf(projectDirectory, config)
        return { config, root, configFiles }
      })

    const runImport = (job: Job) =>
      Effect.scoped(Effect.gen(function*() {
        const session = yield* git.open(job.remote)
        const found = yield* session.fetch({ maxBytes: GIT_LIMITS.fetchBytes })
        if (Option.isNone(found)) return yield* new GitFailed({ reason: `The branch ${job.remote.ref} does not exist` })
        const snapshot = found.value
        const state = yield* stateOf(job.spaceId)
        if (!job.force && (snapshot.commit === state?.exportedCommit || snapshot.commit === state?.importedCommit)) {
          return { commit: snapshot.commit } satisfies Outcome
        }
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
        const files = yield* session.read(wanted)
        const blobKeys = new Map<string, string>()
        for (const [path, bytes] of files) {
          if (/(^|\/)\.gitbook\/(assets|includes)\//.test(path)) blobKeys.set(path, yield* contentFiles.storeBlob(bytes))
        }
        const oids = new Map(wanted.map((e) => [e.path, e.oid] as const))
        const prefix = yield* secrets.newId
        let counter = 0
        const proof = yield* guard.authorize(job.spaceId, "create", "sync this space with Git")
        return yield* uow.transaction(Effect.gen(function*() {
          const space = yield* guard.lockForChange(proof)
          if (!job.standalone && space.editMode === "locked") {
            return yield* new Conflict({ reason: "The space is locked: nothing can be imported into it" })
          }
          const base = yield* contents.load(space.revisionId)
          const at = yield* now
          const target = importFiles(files, {
            projectDirectory: job.projectDirectory,
            base,
            newId: () => `${prefix}${(counter++).toString(36)}`,
            blobKeys,
            oids,
            now: at
          })
          if (!job.force && sameContent(target, base)) return { commit: snapshot.commit } satisfies Outcome
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
          return { revision: revision.id, commit: snapshot.commit } satisfies Outcome
        }))
      }))

    const runExport = (job: Job) =>
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
            const put = exportFiles(revisionContent, { projectDirectory: job.projectDirectory, config: project.config, bytesOf })
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

    const importRepository = (spaceId: SpaceId, input: ImportGitInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(ImportGitInput)(input)
        yield* accept(spaceId, "import", {
          force: valid.force ?? false,
          standalone: valid.standalone ?? false,
          projectDirectory: normalizeDirectory(valid.repoProjectDirectory),
          commitURL: valid.repoCommitURL,
          commitMessage: ""
        }, valid)
      })

    const exportRepository = (spaceId: SpaceId, input: ExportGitInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(ExportGitInput)(input)
        yield* accept(spaceId, "export", {
          force: valid.force ?? false,
          standalone: valid.standalone ?? false,
          projectDirectory: normalizeDirectory(valid.repoProjectDirectory),
          commitURL: valid.repoCommitURL,
          commitMessage: valid.commitMessage
        }, valid)
      })

    /** The space's sync state (`read` level); not found before any operation or `gitInfo` was recorded. */
    const info = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        yield* guard.space(spaceId)
        const state = yield* stateOf(spaceId)
        if (state === undefined || !isShown(state)) {
          return yield* new NotFound({ entity: "Git Sync state of space", id: spaceId })
        }
        return state
      })

    /**
     * On start: the operations this server was running when it stopped failed (their credentials
     * are gone), and so did those abandoned by a server that never came back. Other servers' stay.
     */
    const recover = Effect.gen(function*() {
      const at = yield* now
      const lost = (operation: GitOperation | undefined) =>
        operation?.state === "running" &&
        (operation.owner === instance || at.getTime() - operation.startedAt.getTime() > ABANDONED_AFTER_MS)
      for (const state of yield* states.running()) {
        if (!lost(state.operation)) continue
        yield* record(state.spaceId, (s) =>
          s.operation !== undefined && lost(s.operation)
            ? {
              ...s,
              operation: { ...s.operation, state: "failure", endedAt: at, error: "The server restarted before the operation finished" }
            }
            : s)
      }
    })

    /** Waits until no operation is queued or running for the space on this instance (tests, benchmarks). */
    const settled = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        while (queues.has(spaceId)) yield* Effect.sleep(Duration.millis(20))
      })

    return { importRepository, exportRepository, info, recover, settled } as const
  })
}) {}

/** What the import changes relative to the base: page and file versions that are not the base's own. */
const deltaOf = (base: RevisionContent, target: RevisionContent): ContentDelta => ({
  pages: Array.from(target.pages.values()).filter((p) => base.pages.get(p.id) !== p),
  deletedPages: Array.from(base.pages.keys()).filter((id: PageId) => !target.pages.has(id)),
  files: Array.from(target.files.values()).filter((f) => base.files.get(f.id) !== f),
  deletedFiles: Array.from(base.files.keys()).filter((id: FileId) => !target.files.has(id))
})
