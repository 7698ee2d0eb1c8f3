import type { SitesPorts } from "@octavo/domain"
import { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import {
  MemoryShareLinkRepository,
  MemorySiteRedirectRepository,
  MemorySiteRepository,
  MemorySiteStructureRepository
} from "./Repositories.js"

export { SitesState } from "./State.js"

/** The sites context's storage, in memory. */
export const MemorySites: Layer.Layer<SitesPorts, never, MemoryStore> = Layer.mergeAll(
  MemorySiteRepository,
  MemorySiteStructureRepository,
  MemoryShareLinkRepository,
  MemorySiteRedirectRepository
)
