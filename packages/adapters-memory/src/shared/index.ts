import type { UnitOfWork } from "@octavo/domain"
import type { Layer } from "effect"
import type { MemoryStore } from "./Store.js"
import { MemoryUnitOfWork } from "./UnitOfWork.js"

export { byCreation, containsFolded, firstPage, inOrganization, sortedBy } from "./Lists.js"
export { MemoryStore, MemoryStoreLive, type Slice, slice, type Snapshot } from "./Store.js"
export { byId, change, type ConflictCheck, layerOver, pairKey, type Table, type Tables, tablesOf, unique } from "./Tables.js"

/** What every context shares: units of work over the one store. */
export const MemoryShared: Layer.Layer<UnitOfWork, never, MemoryStore> = MemoryUnitOfWork
