import type { GitSyncPorts } from "@octavo/domain"
import { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemoryGitSyncRepository, MemorySiteGitSyncRepository } from "./Repositories.js"

export { GitSyncMemoryState } from "./State.js"

/** The gitsync context's storage, in memory. */
export const MemoryGitSync: Layer.Layer<GitSyncPorts, never, MemoryStore> = Layer.merge(
  MemoryGitSyncRepository,
  MemorySiteGitSyncRepository
)
