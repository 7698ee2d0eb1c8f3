import type { SearchPorts } from "@octavo/domain"
import type { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemorySearchIndex } from "./SearchIndex.js"

export { SearchState } from "./State.js"

/** The search context's storage, in memory. */
export const MemorySearch: Layer.Layer<SearchPorts, never, MemoryStore> = MemorySearchIndex
