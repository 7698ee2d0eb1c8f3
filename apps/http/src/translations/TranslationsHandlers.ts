import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Translations, translationSettingsListKey } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { presentTranslationSettings } from "./Present.js"
import { TranslationsApi } from "./TranslationsApi.js"

export const TranslationsLive = HttpApiBuilder.group(OctavoBase.add(TranslationsApi), "translations", (handlers) =>
  Effect.gen(function*() {
    const translations = yield* Translations
    const present = presentTranslationSettings(yield* PublicUrl)
    return handlers
      .handle("list", ({ path, urlParams }) =>
        listOf(translationSettingsListKey(path.organizationId), urlParams, (page) =>
          translations.list(path.organizationId, page), present))
      .handle("create", ({ path, payload }) =>
        domain(translations.create(path.organizationId, payload)).pipe(Effect.flatMap(createdAs(present))))
      .handle("get", ({ path }) =>
        domain(translations.get(path.organizationId, path.translationSettingsId)).pipe(Effect.map(present)))
      .handle("replace", ({ path, payload }) =>
        domain(translations.replace(path.organizationId, path.translationSettingsId, payload)).pipe(Effect.map(present)))
      .handle("remove", ({ path }) =>
        domain(translations.remove(path.organizationId, path.translationSettingsId)))
  }))
