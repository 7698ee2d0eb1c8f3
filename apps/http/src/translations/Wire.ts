import { TranslationSettings, TranslationSettingsPermissions } from "@octavo/domain"
import { Schema } from "effect"

// The wire shape of api.md's translation settings (GitBook's `Translation` is another model, decision 7).

export const TranslationSettingsObject = Schema.Struct({
  object: Schema.Literal("translation-settings"),
  ...TranslationSettings.pick("id", "title", "languages").fields,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  permissions: TranslationSettingsPermissions,
  urls: Schema.Struct({ location: Schema.String })
}).annotations({ identifier: "TranslationSettings" })
