import type { RevisionGitInfo } from "../content/Ports.js"
import type { SpaceId } from "../shared/Ids.js"
import type { SpaceGitSyncInfo } from "../spaces/Ports.js"
import { type GitSyncState, isShown, OPERATION_TIMEOUT_MS, type RevisionGit } from "./GitSync.js"

/** A space's sync state as `space.gitSync` and `GET git/info` show it (conventions-2.md §8). */
export const gitSyncInfoOf = (state: GitSyncState): SpaceGitSyncInfo => ({
  repoName: state.repoName,
  installationProvider: state.installationProvider,
  url: state.url,
  updatedAt: state.updatedAt,
  operation: state.operation,
  operationTimeout: OPERATION_TIMEOUT_MS
})

/** The Git Sync of spaces, for the spaces context: those of the states a space shows. */
export const shownGitSyncs = (states: ReadonlyArray<GitSyncState>): Map<SpaceId, SpaceGitSyncInfo> =>
  new Map(states.filter(isShown).map((s) => [s.spaceId, gitSyncInfoOf(s)]))

/** The commit an imported revision came from, as the content context shows it. */
export const gitInfoOf = ({ revisionId: _, spaceId: __, ...git }: RevisionGit): RevisionGitInfo => git
