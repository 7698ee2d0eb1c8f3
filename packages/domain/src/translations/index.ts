import { Translations } from "./TranslationService.js"

export * from "./Lists.js"
export * from "./Ports.js"
export * from "./TranslationService.js"
export * from "./TranslationSettings.js"

/** The translations context's use cases: an organization's translation settings. */
export const TranslationsServices = Translations.Default

/** The translations context's part of the domain (the list in ../Contexts.ts). */
export const TranslationsContext = { services: TranslationsServices }
