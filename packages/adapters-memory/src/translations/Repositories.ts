import { TranslationSettingsRepository } from "@octavo/domain"
import { byCreation, byId, layerOver } from "../shared/index.js"
import { TranslationsState } from "./State.js"

export const MemoryTranslationSettingsRepository = layerOver(TranslationSettingsRepository, TranslationsState, ({ settings }) => {
  const { delete: remove, findById, insert, update } = byId(settings)
  return {
    insert,
    update,
    remove,
    findById,
    list: (organizationId, page) => settings.page((s) => s.organizationId === organizationId, byCreation, "asc", page)
  }
})
