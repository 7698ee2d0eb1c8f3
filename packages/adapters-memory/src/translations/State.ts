import type { TranslationSettings } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the translations context keeps in memory. */
export const TranslationsState = slice("@octavo/adapters-memory/translations", {
  /** By translation settings id. */
  settings: HashMap.empty<string, TranslationSettings>()
})
