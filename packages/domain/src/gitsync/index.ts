export * from "./ForContent.js"
export * from "./Format.js"
export * from "./ForSpaces.js"
export * from "./GitSync.js"
export * from "./Ports.js"
export * from "./Redirects.js"
export { OCTAVO_COMMITTER } from "./Export.js"
export * from "./GitSyncOperationService.js"
export * from "./GitSyncQueueService.js"
export * from "./GitSyncService.js"
export * from "./SiteConfig.js"
export * from "./SiteGitSyncService.js"

import { Layer } from "effect"
import { GitSyncOperations } from "./GitSyncOperationService.js"
import { GitSyncQueue } from "./GitSyncQueueService.js"
import { GitSync } from "./GitSyncService.js"
import { SiteGitSync } from "./SiteGitSyncService.js"
import { RevisionGitReadsOneByOne, RevisionOriginsLive } from "./ForContent.js"
import { GitSyncFact } from "./ForSpaces.js"

/**
 * The gitsync context's use cases: the API's requests (imports, exports, state), over the queue of each space, over
 * the runner of one operation, and the sync of whole sites over the spaces'. Needs `GitRepositories` and `ServerInstance`.
 */
export const GitSyncServices = SiteGitSync.Default.pipe(
  Layer.provideMerge(GitSync.Default),
  Layer.provideMerge(GitSyncQueue.Default),
  Layer.provideMerge(GitSyncOperations.Default)
)

/** The gitsync context's part of the domain (the list in ../Contexts.ts). */
export const GitSyncContext = {
  services: GitSyncServices,
  answers: RevisionOriginsLive,
  spaceFacts: [GitSyncFact],
  readsOneByOne: RevisionGitReadsOneByOne
}
