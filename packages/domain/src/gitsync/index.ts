export * from "./ForContent.js"
export * from "./Format.js"
export * from "./ForSpaces.js"
export * from "./GitSync.js"
export * from "./Ports.js"
export * from "./GitSyncService.js"

import { GitSync } from "./GitSyncService.js"

/** The gitsync context's use cases: queued imports and exports, and their state. Needs `GitRepositories` and `ServerInstance`. */
export const GitSyncServices = GitSync.Default
