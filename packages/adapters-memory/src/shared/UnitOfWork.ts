import { UnitOfWork } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { MemoryStore } from "./Store.js"

/** Units of work are the store's transactions: one at a time, and a failed one leaves nothing. */
export const MemoryUnitOfWork = Layer.effect(UnitOfWork, Effect.map(MemoryStore, (store) => ({ transaction: store.transaction })))
