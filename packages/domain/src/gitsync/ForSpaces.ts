import { Effect, Layer, Option } from "effect"
import { RevisionGitOrigins } from "../content/Ports.js"
import type { RevisionId, SpaceId } from "../shared/Ids.js"
import { SpaceGitSync, type SpaceGitSyncInfo } from "../spaces/Ports.js"
import { type GitSyncState, isShown, OPERATION_TIMEOUT_MS } from "./GitSync.js"
import { GitSyncRepository } from "./Ports.js"

/** A space's sync state as `space.gitSync` and `GET git/info` show it (conventions-2.md §8). */
export const gitSyncInfoOf = (state: GitSyncState): SpaceGitSyncInfo => ({
  repoName: state.repoName,
  installationProvider: state.installationProvider,
  url: state.url,
  updatedAt: state.updatedAt,
  operation: state.operation,
  operationTimeout: OPERATION_TIMEOUT_MS
})

/** The Git Sync of spaces, for the spaces context: every asked space's state in one read. */
export const GitSyncForSpaces = Layer.effect(
  SpaceGitSync,
  Effect.map(GitSyncRepository, (states) => ({
    of: (spaceIds: ReadonlyArray<SpaceId>) =>
      Effect.map(states.findMany(spaceIds), (found) => new Map(found.filter(isShown).map((s) => [s.spaceId, gitSyncInfoOf(s)])))
  }))
)

/** The commits imported revisions came from, for the content context. */
export const GitSyncForContent = Layer.effect(
  RevisionGitOrigins,
  Effect.map(GitSyncRepository, (states) => ({
    of: (revisionId: RevisionId) => Effect.map(states.findRevision(revisionId), Option.map(({ revisionId: _, spaceId: __, ...git }) => git))
  }))
)

/** The ports of earlier contexts that gitsync answers. */
export const GitSyncAnswers = Layer.merge(GitSyncForSpaces, GitSyncForContent)
