import { Effect } from "effect"
import { Actor } from "../identity/Actor.js"
import { Conflict, InvalidInput, NotFound } from "../shared/Errors.js"
import type { SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { type Direction, ExportGitInput, ImportGitInput, isShown, normalizeDirectory, remoteOf } from "./GitSync.js"
import { GitSyncQueue } from "./GitSyncQueueService.js"
import { type Job, makeGitSyncWork } from "./GitSyncWork.js"
import { type GitSession, GitRepositories } from "./Ports.js"

/**
 * Git Sync (conventions-2.md §8), the API's `gitsync` group: imports and exports checked and queued (`GitSyncQueue`
 * runs them, one at a time per space), and the space's sync state.
 */
export class GitSync extends Effect.Service<GitSync>()("@octavo/domain/GitSync", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const git = yield* GitRepositories
    const queue = yield* GitSyncQueue
    const { stateOf } = yield* makeGitSyncWork

    /** Checks a request and the remote, then queues it (or answers that a newer one was accepted). */
    const accept = (
      spaceId: SpaceId,
      direction: Direction,
      job: Pick<Job, "force" | "standalone" | "projectDirectory" | "commitURL" | "commitMessage" | "session">,
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
        yield* queue.enqueue({ ...job, spaceId, direction, remote, actor }, input)
      })

    /** `options.session`: a working copy the caller holds open until the operation ends (a site's sync). */
    const importRepository = (spaceId: SpaceId, input: ImportGitInput, options?: { readonly session?: GitSession }) =>
      Effect.gen(function*() {
        const valid = yield* validate(ImportGitInput)(input)
        yield* accept(spaceId, "import", {
          force: valid.force ?? false,
          standalone: valid.standalone ?? false,
          projectDirectory: normalizeDirectory(valid.repoProjectDirectory),
          commitURL: valid.repoCommitURL,
          commitMessage: "",
          session: options?.session
        }, valid)
      })

    const exportRepository = (spaceId: SpaceId, input: ExportGitInput, options?: { readonly session?: GitSession }) =>
      Effect.gen(function*() {
        const valid = yield* validate(ExportGitInput)(input)
        yield* accept(spaceId, "export", {
          force: valid.force ?? false,
          standalone: valid.standalone ?? false,
          projectDirectory: normalizeDirectory(valid.repoProjectDirectory),
          commitURL: valid.repoCommitURL,
          commitMessage: valid.commitMessage,
          session: options?.session
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

    return { importRepository, exportRepository, info } as const
  })
}) {}
