import { Schema } from "effect"
import { OrganizationId } from "../shared/Ids.js"
import { TranslationLanguage } from "../shared/Languages.js"
import { boundedString, StoredString } from "../shared/Limits.js"

// Translation settings: api.md's shape and limits, conventions-2.md §6 for `languages`.

export const TranslationSettingsId = StoredString.pipe(
  Schema.filter((s) => /^[A-Za-z0-9_-]{1,64}$/.test(s) || "must be an id (letters, digits, - and _)"),
  Schema.brand("TranslationSettingsId")
)
export type TranslationSettingsId = typeof TranslationSettingsId.Type

export const TranslationTitle = boundedString({ min: 1, max: 100 })

/** Each language at most once. */
export const TranslationLanguages = Schema.Array(TranslationLanguage).pipe(
  Schema.filter((languages) => {
    const twice = languages.find((language, i) => languages.indexOf(language) !== i)
    return twice === undefined || `must not name a language twice, got ${twice} twice`
  }, { jsonSchema: { uniqueItems: true } })
)

export const TranslationSettings = Schema.Struct({
  id: TranslationSettingsId,
  organizationId: OrganizationId,
  title: Schema.String,
  languages: Schema.Array(TranslationLanguage),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type TranslationSettings = typeof TranslationSettings.Type

/** What the caller may do with translation settings: change or delete them, as an admin. */
export const TranslationSettingsPermissions = Schema.Struct({ edit: Schema.Boolean })
export type TranslationSettingsPermissions = typeof TranslationSettingsPermissions.Type

// Inputs of the use cases; `languages` is Octavo's extension (conventions-2.md §6).
export const CreateTranslationSettingsInput = Schema.Struct({
  title: TranslationTitle,
  languages: Schema.optional(TranslationLanguages)
})
export type CreateTranslationSettingsInput = typeof CreateTranslationSettingsInput.Type

/** A PUT replaces the title; without `languages` the list stays as it is. */
export const ReplaceTranslationSettingsInput = CreateTranslationSettingsInput
export type ReplaceTranslationSettingsInput = typeof ReplaceTranslationSettingsInput.Type
