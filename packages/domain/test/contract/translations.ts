import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import {
  Actor,
  type OrganizationId,
  type StoragePorts,
  type TranslationSettings,
  TranslationSettingsId,
  TranslationSettingsRepository,
  Translations,
  TranslationsServices
} from "../../src/index.js"
import { adminOfNewOrganization, at, makeMember, makeOrganization, makeUser, type Services, uniqueId } from "./fixtures.js"
import { walk } from "./walk.js"

const failureTag = <A, E extends { _tag: string }>(result: Either.Either<A, E>) => (Either.isLeft(result) ? result.left._tag : "success")

const settingsOf = (organizationId: OrganizationId, fields: Partial<TranslationSettings> = {}): TranslationSettings => ({
  id: TranslationSettingsId.make(uniqueId("tr")),
  organizationId,
  title: "Docs",
  languages: [],
  createdAt: at(1),
  updatedAt: at(1),
  ...fields
})

/** Translation settings (api.md, conventions-2.md §6): their storage, and the use cases over it. */
export const translationsContract = (storage: Layer.Layer<StoragePorts>, services: Services) =>
  layer(TranslationsServices.pipe(Layer.provideMerge(services), Layer.provideMerge(storage)), { timeout: 60_000 })(
    "translations",
    (it) => {
      it.effect("settings: stored whole, listed by creation a page at a time, replaced, removed", () =>
        Effect.gen(function*() {
          const repository = yield* TranslationSettingsRepository
          const organization = yield* makeOrganization()
          const elsewhere = yield* makeOrganization()
          const later = settingsOf(organization.id, { title: "Later", languages: ["fr", "pt-br", "zh-tw"], createdAt: at(5) })
          const earlier = settingsOf(organization.id, { title: "Earlier", createdAt: at(2) })
          const tied = settingsOf(organization.id, { title: "Tied", languages: ["en"], createdAt: at(5) })
          for (const s of [later, earlier, tied, settingsOf(elsewhere.id)]) yield* repository.insert(s)
          expect(yield* repository.findById(later.id)).toEqual(Option.some(later))
          const listed = yield* walk((page) => repository.list(organization.id, page), 2)
          expect(listed).toEqual([earlier, ...[later, tied].sort((a, b) => (a.id < b.id ? -1 : 1))])
          expect((yield* repository.list(organization.id, { limit: 1, after: Option.none() })).count).toBe(3)
          const replaced = { ...later, title: "Renamed", languages: [], updatedAt: at(9) }
          yield* repository.update(replaced)
          expect(yield* repository.findById(later.id)).toEqual(Option.some(replaced))
          yield* repository.remove(later.id)
          expect(yield* repository.findById(later.id)).toEqual(Option.none())
          expect((yield* repository.list(organization.id, { limit: 10, after: Option.none() })).count).toBe(2)
        }))

      it.effect("admins create and replace; a PUT without languages keeps them; members read; guests and others may not", () =>
        Effect.gen(function*() {
          const translations = yield* Translations
          const { organization, run } = yield* adminOfNewOrganization
          const created = yield* run(translations.create(organization.id, { title: "Docs", languages: ["fr", "de"] }))
          expect(created.settings).toMatchObject({ title: "Docs", languages: ["fr", "de"] })
          expect(created.permissions).toEqual({ edit: true })
          expect(created.settings.updatedAt).toEqual(created.settings.createdAt)
          const id = created.settings.id
          yield* TestClock.adjust("1 minute")
          const renamed = yield* run(translations.replace(organization.id, id, { title: "Handbook" }))
          expect(renamed.settings).toMatchObject({ title: "Handbook", languages: ["fr", "de"] })
          expect(renamed.settings.updatedAt.getTime()).toBeGreaterThan(created.settings.updatedAt.getTime())
          const emptied = yield* run(translations.replace(organization.id, id, { title: "Handbook", languages: [] }))
          expect(emptied.settings.languages).toEqual([])
          const plain = yield* run(translations.create(organization.id, { title: "Plain" }))
          expect(plain.settings.languages).toEqual([])
          const twice = yield* Effect.either(run(translations.create(organization.id, { title: "X", languages: ["fr", "fr"] })))
          expect(Either.isLeft(twice) && twice.left._tag === "InvalidInput" && twice.left.field).toBe("languages")

          const reader = yield* makeUser()
          yield* makeMember(organization, reader, "read")
          const guest = yield* makeUser()
          yield* makeMember(organization, guest, null)
          const as = (user: typeof reader) => Effect.provideService(Actor, user)
          const seen = yield* as(reader)(translations.get(organization.id, id))
          expect(seen).toEqual({ settings: emptied.settings, permissions: { edit: false } })
          expect((yield* as(reader)(translations.list(organization.id, { limit: 10, after: Option.none() }))).count).toBe(2)
          expect(failureTag(yield* Effect.either(as(reader)(translations.remove(organization.id, id))))).toBe("Forbidden")
          expect(failureTag(yield* Effect.either(as(guest)(translations.get(organization.id, id))))).toBe("Forbidden")
          const other = yield* adminOfNewOrganization
          expect(failureTag(yield* Effect.either(other.run(translations.get(organization.id, id))))).toBe("NotFound")
          expect(failureTag(yield* Effect.either(other.run(translations.get(other.organization.id, id))))).toBe("NotFound")
          yield* run(translations.remove(organization.id, id))
          expect(failureTag(yield* Effect.either(run(translations.get(organization.id, id))))).toBe("NotFound")
        }))
    }
  )
