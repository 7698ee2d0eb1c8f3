import { Schema } from "effect"
import { boundedString } from "./Limits.js"

// Languages, as GitBook names them: a space's content language, translation settings' languages, and the localized
// titles and descriptions of a site's sections, groups and spaces.

/** GitBook's TranslationLanguage: 39 codes, not BCP 47. */
export const translationLanguages = [
  "en",
  "fr",
  "de",
  "es",
  "it",
  "pt",
  "pt-br",
  "ru",
  "ja",
  "zh",
  "zh-tw",
  "yue",
  "ko",
  "ar",
  "hi",
  "nl",
  "pl",
  "tr",
  "sv",
  "no",
  "da",
  "fi",
  "el",
  "cs",
  "hu",
  "ro",
  "th",
  "vi",
  "id",
  "ms",
  "he",
  "uk",
  "sk",
  "bg",
  "hr",
  "lt",
  "lv",
  "et",
  "sl"
] as const

export const TranslationLanguage = Schema.Literal(...translationLanguages).annotations({
  message: () => `must be one of ${translationLanguages.join(", ")}`
})
export type TranslationLanguage = typeof TranslationLanguage.Type

const languageSet: ReadonlySet<string> = new Set(translationLanguages)

/**
 * A text in other languages than the default one, by language (GitBook's LocalizedString128 and LocalizedString256):
 * each key one of the languages, each text 1 to `max` characters. (A record keyed by a refined string would drop the
 * keys that fail, and one keyed by the literals would require every language: the keys are checked on the whole.)
 */
export const localizedString = (max: number) =>
  Schema.Record({ key: Schema.String, value: boundedString({ min: 1, max }) }).pipe(
    Schema.filter((texts) => {
      const other = Object.keys(texts).find((key) => !languageSet.has(key))
      return other === undefined ||
        { path: [other], message: `is not a language: the keys must be among ${translationLanguages.join(", ")}` }
    }, { jsonSchema: { propertyNames: { enum: [...translationLanguages] } } })
  )

/** A title in other languages: GitBook's LocalizedString128. */
export const LocalizedTitle = localizedString(128)
/** A description in other languages: GitBook's LocalizedString256. */
export const LocalizedDescription = localizedString(256)
export type Localized = { readonly [language: string]: string }

/** The text to show in `language`: its localized form when it has one, else the default. */
export const localizedOr = (text: string, localized: Localized, language: string | undefined): string =>
  (language === undefined || !Object.hasOwn(localized, language) ? undefined : localized[language]) ?? text
