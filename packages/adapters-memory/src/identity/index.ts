import type { IdentityPorts } from "@octavo/domain"
import { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemoryTokenRepository, MemoryUserRepository } from "./Repositories.js"

export { IdentityState } from "./State.js"

/** The identity context's storage, in memory. */
export const MemoryIdentity: Layer.Layer<IdentityPorts, never, MemoryStore> = Layer.mergeAll(
  MemoryUserRepository,
  MemoryTokenRepository
)
