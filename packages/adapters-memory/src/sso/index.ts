import type { SsoPorts } from "@octavo/domain"
import type { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemorySamlProviderRepository } from "./Repositories.js"

export { SsoState } from "./State.js"

/** The sso context's storage, in memory. */
export const MemorySso: Layer.Layer<SsoPorts, never, MemoryStore> = MemorySamlProviderRepository
