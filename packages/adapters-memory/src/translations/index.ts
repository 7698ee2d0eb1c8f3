import type { TranslationsPorts } from "@octavo/domain"
import type { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemoryTranslationSettingsRepository } from "./Repositories.js"

export { TranslationsState } from "./State.js"

/** The translations context's storage, in memory. */
export const MemoryTranslations: Layer.Layer<TranslationsPorts, never, MemoryStore> = MemoryTranslationSettingsRepository
