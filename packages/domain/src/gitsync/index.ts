export * from "./ForContent.js"
export * from "./Format.js"
export * from "./ForSpaces.js"
export * from "./GitSync.js"
export * from "./Ports.js"
export * from "./GitSyncService.js"

import { GitSync } from "./GitSyncService.js"
import { RevisionGitReadsOneByOne, RevisionOriginsLive } from "./ForContent.js"
import { GitSyncFact } from "./ForSpaces.js"

/** The gitsync context's use cases: queued imports and exports, and their state. Needs `GitRepositories` and `ServerInstance`. */
export const GitSyncServices = GitSync.Default

/** The gitsync context's part of the domain (the list in ../Contexts.ts). */
export const GitSyncContext = {
  services: GitSyncServices,
  answers: RevisionOriginsLive,
  spaceFacts: [GitSyncFact],
  readsOneByOne: RevisionGitReadsOneByOne
}
