// GitBook's `GitSyncState` is a space's `gitSync` first: the spaces context states it.
export { GitSyncStateObject } from "../spaces/Wire.js"
