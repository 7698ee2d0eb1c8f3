import { Translations } from "./TranslationService.js"

export * from "./Lists.js"
export * from "./Ports.js"
export * from "./TranslationService.js"
export * from "./TranslationSettings.js"

/** The translations context's use cases: an organization's translation settings. */
export const TranslationsServices = Translations.Default
