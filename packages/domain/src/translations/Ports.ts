import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../shared/Ids.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import type { TranslationSettings, TranslationSettingsId } from "./TranslationSettings.js"

/** An organization's translation settings. */
export class TranslationSettingsRepository
  extends Context.Tag("@octavo/domain/TranslationSettingsRepository")<TranslationSettingsRepository, {
    readonly insert: (settings: TranslationSettings) => Effect.Effect<void>
    /** Replaces the title, the languages and `updatedAt`. */
    readonly update: (settings: TranslationSettings) => Effect.Effect<void>
    readonly remove: (id: TranslationSettingsId) => Effect.Effect<void>
    readonly findById: (id: TranslationSettingsId) => Effect.Effect<Option.Option<TranslationSettings>>
    /** Keyset over (createdAt in epoch ms, id) ascending. */
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<TranslationSettings>>
  }>()
{}

/** The storage the translations context owns. */
export type TranslationsPorts = TranslationSettingsRepository
