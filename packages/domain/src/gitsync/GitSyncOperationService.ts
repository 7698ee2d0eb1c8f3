import { Cause, Duration, Effect, Exit, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import { now } from "../shared/Time.js"
import { makeExport } from "./Export.js"
import { ABANDONED_AFTER_MS, type GitOperation, OPERATION_TIMEOUT_MS, redact } from "./GitSync.js"
import { type Job, makeGitSyncWork, type Outcome, sentenceOf } from "./GitSyncWork.js"
import { makeImport } from "./Import.js"
import { GitFailed, GitSyncRepository, ServerInstance } from "./Ports.js"

/**
 * The runner of Git Sync operations (conventions-2.md §8): runs one queued import or export as the actor who asked,
 * within OPERATION_TIMEOUT_MS, and records how it ended in the space's state; at start, fails those a server lost.
 */
export class GitSyncOperations extends Effect.Service<GitSyncOperations>()("@octavo/domain/GitSyncOperations", {
  effect: Effect.gen(function*() {
    const states = yield* GitSyncRepository
    const instance = yield* ServerInstance
    const { record } = yield* makeGitSyncWork
    const runImport = yield* makeImport
    const runExport = yield* makeExport

    /** Runs one operation and records its outcome; never fails (what it cannot record is logged). */
    const run = (job: Job): Effect.Effect<void> =>
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
              ...(job.direction === "import" && outcome.commit !== undefined && !job.standalone ? { importedCommit: outcome.commit } : {}),
              ...(outcome.manifest !== undefined ? { manifest: outcome.manifest } : {})
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

    return { run, recover } as const
  })
}) {}
