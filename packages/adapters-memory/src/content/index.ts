import type { ContentPorts } from "@octavo/domain"
import { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemoryBlobStore, MemoryChangeRequestRepository, MemoryRevisionContentRepository } from "./Repositories.js"

export { ContentState } from "./State.js"

/** The content context's storage, in memory. */
export const MemoryContent: Layer.Layer<ContentPorts, never, MemoryStore> = Layer.mergeAll(
  MemoryRevisionContentRepository,
  MemoryBlobStore,
  MemoryChangeRequestRepository
)
