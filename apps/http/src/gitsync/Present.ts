import { GitSyncFact, gitSyncInfoOf, type GitSyncState, type SiteGitSyncState, type SpaceGitSyncInfo } from "@octavo/domain"
import type { SpaceFields } from "../spaces/Present.js"
import type { GitSyncStateObject, SiteGitSyncStateObject } from "./Wire.js"

/** A space's Git Sync (GitBook's `GitSyncState`); it never held a credential. */
export const presentGitSync = (spaceId: string, info: SpaceGitSyncInfo): GitSyncStateObject => ({
  installationId: `space-${spaceId}`,
  installationStatus: "active",
  ...(info.installationProvider !== undefined ? { installationProvider: info.installationProvider } : {}),
  ...(info.repoName !== undefined ? { repoName: info.repoName } : {}),
  ...(info.url !== undefined ? { url: info.url } : {}),
  updatedAt: info.updatedAt.toISOString(),
  ...(info.operation !== undefined
    ? {
      operation: {
        state: info.operation.state,
        direction: info.operation.direction,
        startedAt: info.operation.startedAt.toISOString(),
        ...(info.operation.endedAt !== undefined ? { endedAt: info.operation.endedAt.toISOString() } : {}),
        ...(info.operation.error !== undefined ? { error: info.operation.error } : {}),
        ...(info.operation.revision !== undefined ? { revision: info.operation.revision } : {}),
        ...(info.operation.commit !== undefined ? { commit: info.operation.commit } : {}),
        ...(info.operation.state === "running" && info.operation.stage !== undefined ? { stage: info.operation.stage } : {}),
        ...(info.operation.state === "running" && info.operation.progress !== undefined ? { progress: info.operation.progress } : {})
      }
    }
    : {}),
  operationTimeout: info.operationTimeout
})

/** A space's sync state on the wire, the same object as its `gitSync`. */
export const presentGitSyncState = (state: GitSyncState): GitSyncStateObject => presentGitSync(state.spaceId, gitSyncInfoOf(state))

/** A space's `gitSync`, once an operation or a `gitInfo` was recorded. */
export const gitSyncFields: SpaceFields = (_, { facts, space }) => {
  const info = facts.of(GitSyncFact, space.id)
  return info === undefined ? {} : { gitSync: presentGitSync(space.id, info) }
}

/** A site's sync state (GitBook's `GitSyncSiteOperation` under `operation`); shown once it has an operation. */
export const presentSiteGitSync = (state: SiteGitSyncState): SiteGitSyncStateObject => {
  const operation = state.operation!
  return {
    object: "site-git-sync",
    ...(state.repoName !== undefined ? { repoName: state.repoName } : {}),
    ...(state.url !== undefined ? { url: state.url } : {}),
    ...(state.ref !== undefined ? { ref: state.ref } : {}),
    projectDirectory: state.projectDirectory ?? "",
    ...(state.configPath !== undefined ? { configPath: state.configPath } : {}),
    ...(state.commit !== undefined ? { commit: state.commit } : {}),
    updatedAt: state.updatedAt.toISOString(),
    operation: {
      state: operation.state,
      direction: operation.direction,
      stage: operation.stage,
      startedAt: operation.startedAt.toISOString(),
      updatedAt: operation.updatedAt.toISOString(),
      ...(operation.completedAt !== undefined ? { completedAt: operation.completedAt.toISOString() } : {}),
      ...(operation.error !== undefined ? { error: operation.error } : {}),
      spaces: Object.fromEntries(
        Object.entries(operation.spaces).map(([spaceId, space]) => [spaceId, {
          state: space.state,
          direction: space.direction,
          stage: "finalize" as const,
          dispatchedTasks: 0,
          completedTasks: 0,
          startedAt: space.startedAt.toISOString(),
          updatedAt: space.updatedAt.toISOString(),
          ...(space.completedAt !== undefined ? { completedAt: space.completedAt.toISOString() } : {}),
          ...(space.error !== undefined ? { error: space.error } : {})
        }])
      )
    }
  }
}
