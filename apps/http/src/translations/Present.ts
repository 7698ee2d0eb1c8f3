import type { TranslationSettingsView } from "@octavo/domain"
import { organizationLocation } from "../organizations/Present.js"
import type { TranslationSettingsObject } from "./Wire.js"

export const presentTranslationSettings =
  (base: string) => ({ permissions, settings: s }: TranslationSettingsView): typeof TranslationSettingsObject.Type => ({
    object: "translation-settings",
    id: s.id,
    title: s.title,
    languages: s.languages,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    permissions,
    urls: { location: `${organizationLocation(base, s.organizationId)}/translations/${s.id}` }
  })
