import { Effect } from "effect"
import type { SpaceId } from "../shared/Ids.js"
import type { SpaceFact } from "../spaces/Facts.js"
import { type GitSyncState, isShown, OPERATION_TIMEOUT_MS, type OperationStage } from "./GitSync.js"
import { GitSyncRepository } from "./Ports.js"

/** A space's Git Sync as GitBook's `GitSyncState` shows it (conventions-2.md §8), without credentials. */
export interface SpaceGitSyncInfo {
  readonly repoName?: string | undefined
  readonly installationProvider?: string | undefined
  readonly url?: string | undefined
  readonly updatedAt: Date
  /** The last (or current) operation; a queued one shows as running. */
  readonly operation?: {
    readonly state: "running" | "success" | "failure" | "timeout"
    readonly direction: "import" | "export"
    readonly startedAt: Date
    readonly endedAt?: Date | undefined
    readonly error?: string | undefined
    readonly revision?: string | undefined
    readonly commit?: string | undefined
    readonly stage?: OperationStage | undefined
    readonly progress?: { readonly done: number; readonly total: number } | undefined
  } | undefined
  /** How long an operation may run, in milliseconds. */
  readonly operationTimeout: number
}

/** A space's sync state as `space.gitSync` and `GET git/info` show it (conventions-2.md §8). */
export const gitSyncInfoOf = (state: GitSyncState): SpaceGitSyncInfo => ({
  repoName: state.repoName,
  installationProvider: state.installationProvider,
  url: state.url,
  updatedAt: state.updatedAt,
  operation: state.operation,
  operationTimeout: OPERATION_TIMEOUT_MS
})

/** A space's Git Sync on views of spaces, once an operation or a `gitInfo` was recorded. */
export const GitSyncFact: SpaceFact<ReadonlyArray<GitSyncState>, SpaceGitSyncInfo, GitSyncRepository> = {
  key: "git_sync",
  read: Effect.map(GitSyncRepository, (gitSyncs) => gitSyncs.findMany),
  show: Effect.succeed((states) =>
    Effect.succeed(new Map<SpaceId, SpaceGitSyncInfo>(states.filter(isShown).map((s) => [s.spaceId, gitSyncInfoOf(s)])))
  )
}
