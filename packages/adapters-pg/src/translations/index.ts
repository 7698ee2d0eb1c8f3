import type * as SqlClient from "@effect/sql/SqlClient"
import type { TranslationsPorts } from "@octavo/domain"
import type { Layer } from "effect"
import { TranslationSettingsRepositoryLive } from "./TranslationSettingsRepository.js"
import { translationsMigrations } from "./migrations.js"
import { pgContext } from "../shared/Context.js"

/** The translations context's storage: organizations' translation settings. */
export const PgTranslations: Layer.Layer<TranslationsPorts, never, SqlClient.SqlClient> = TranslationSettingsRepositoryLive

export { translationsMigrations } from "./migrations.js"
export { TranslationSettingsRepositoryLive } from "./TranslationSettingsRepository.js"

/** The translations context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgTranslationsContext = pgContext({
  storage: PgTranslations,
  migrations: translationsMigrations
})
