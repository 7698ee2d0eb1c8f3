import type { GitSyncPorts } from "@octavo/domain"
import type { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemoryGitSyncRepository } from "./Repositories.js"

export { GitSyncMemoryState } from "./State.js"

/** The gitsync context's storage, in memory. */
export const MemoryGitSync: Layer.Layer<GitSyncPorts, never, MemoryStore> = MemoryGitSyncRepository
