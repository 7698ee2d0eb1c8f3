import type { SpacesPorts } from "@octavo/domain"
import { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import {
  MemoryCollectionRepository,
  MemoryCustomFieldRepository,
  MemoryRevisionRepository,
  MemorySiblingRepository,
  MemorySpaceRepository
} from "./Repositories.js"

export { SpacesState } from "./State.js"

/** The spaces context's storage, in memory. */
export const MemorySpaces: Layer.Layer<SpacesPorts, never, MemoryStore> = Layer.mergeAll(
  MemoryCollectionRepository,
  MemorySpaceRepository,
  MemorySiblingRepository,
  MemoryRevisionRepository,
  MemoryCustomFieldRepository
)
