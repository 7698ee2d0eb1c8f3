import { Duration, Effect, Exit } from "effect"
import { Conflict } from "../shared/Errors.js"
import type { SpaceId } from "../shared/Ids.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { type GitOperation, type GitSyncState, MAX_QUEUED, repoNameOf } from "./GitSync.js"
import { GitSyncOperations } from "./GitSyncOperationService.js"
import { type Job, makeGitSyncWork } from "./GitSyncWork.js"
import { GitSyncRepository, ServerInstance } from "./Ports.js"

/**
 * The queue of Git Sync operations (conventions-2.md §8): one queue per space on this instance, in timestamp order,
 * at most MAX_QUEUED waiting; a fiber drains it, one operation at a time.
 */
export class GitSyncQueue extends Effect.Service<GitSyncQueue>()("@octavo/domain/GitSyncQueue", {
  effect: Effect.gen(function*() {
    const states = yield* GitSyncRepository
    const uow = yield* UnitOfWork
    const instance = yield* ServerInstance
    const operations = yield* GitSyncOperations
    const { stateOf } = yield* makeGitSyncWork

    // The queue of each space on this instance; a fiber drains it, one operation at a time.
    const queues = new Map<SpaceId, { jobs: Array<Job>; running: boolean }>()
    // Places held by requests between their check and their job's arrival in the queue.
    const reserved = new Map<SpaceId, number>()

    /** Queues an operation already checked (or answers that a newer one was accepted), recording it as running. */
    const enqueue = (
      job: Omit<Job, "startedAt" | "timestamp">,
      input: {
        readonly timestamp?: Date | undefined
        readonly repoTreeURL?: string | undefined
        readonly gitInfo?: { readonly provider?: string | undefined; readonly url?: string | undefined } | undefined
      }
    ) =>
      Effect.gen(function*() {
        const { direction, remote, spaceId } = job
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
            entry.jobs.push({ ...job, timestamp, startedAt: at })
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
          yield* operations.run(job)
        }
      })

    /** Waits until no operation is queued or running for the space on this instance (tests, benchmarks). */
    const settled = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        while (queues.has(spaceId)) yield* Effect.sleep(Duration.millis(20))
      })

    return { enqueue, settled } as const
  })
}) {}
