import { Effect, Option } from "effect"
import { makeAccess } from "../organizations/Access.js"
import type { Member } from "../organizations/Organization.js"
import { isAdmin, requireNotGuest, requireRole } from "../organizations/Policy.js"
import { NotFound } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { TranslationSettingsRepository } from "./Ports.js"
import {
  CreateTranslationSettingsInput,
  ReplaceTranslationSettingsInput,
  type TranslationSettings,
  TranslationSettingsId,
  type TranslationSettingsPermissions
} from "./TranslationSettings.js"

/** Translation settings with what the caller may do with them. */
export interface TranslationSettingsView {
  readonly settings: TranslationSettings
  readonly permissions: TranslationSettingsPermissions
}

/**
 * Translation settings (api.md, conventions-2.md §6): members with a role read them, as they read the
 * organization's other settings (guests may not); admins create, replace and delete them.
 */
export class Translations extends Effect.Service<Translations>()("@octavo/domain/Translations", {
  effect: Effect.gen(function*() {
    const repository = yield* TranslationSettingsRepository
    const secrets = yield* Secrets
    const accessOrganization = yield* makeAccess

    const viewOf = (member: Member, settings: TranslationSettings): TranslationSettingsView => ({
      settings,
      permissions: { edit: isAdmin(member) }
    })

    const reader = (organizationId: OrganizationId, action: string) =>
      Effect.tap(accessOrganization(organizationId), ({ member }) => requireNotGuest(member, action))

    const administer = (organizationId: OrganizationId, action: string) =>
      Effect.tap(accessOrganization(organizationId), ({ member }) => requireRole(member, "admin", action))

    const find = (organizationId: OrganizationId, id: TranslationSettingsId) =>
      Effect.flatMap(
        repository.findById(id),
        (found) =>
          Option.isSome(found) && found.value.organizationId === organizationId
            ? Effect.succeed(found.value)
            : Effect.fail(new NotFound({ entity: "translation settings", id }))
      )

    const list = (organizationId: OrganizationId, page: PageRequest) =>
      Effect.gen(function*() {
        const { member } = yield* reader(organizationId, "read translation settings")
        const found = yield* repository.list(organizationId, page)
        return { ...found, items: found.items.map((settings) => viewOf(member, settings)) }
      })

    const create = (organizationId: OrganizationId, input: CreateTranslationSettingsInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateTranslationSettingsInput)(input)
        const { member } = yield* administer(organizationId, "create translation settings")
        const createdAt = yield* now
        const settings: TranslationSettings = {
          id: TranslationSettingsId.make(yield* secrets.newId),
          organizationId,
          title: valid.title,
          languages: valid.languages ?? [],
          createdAt,
          updatedAt: createdAt
        }
        yield* repository.insert(settings)
        return viewOf(member, settings)
      })

    const get = (organizationId: OrganizationId, id: TranslationSettingsId) =>
      Effect.gen(function*() {
        const { member } = yield* reader(organizationId, "read translation settings")
        return viewOf(member, yield* find(organizationId, id))
      })

    const replace = (organizationId: OrganizationId, id: TranslationSettingsId, input: ReplaceTranslationSettingsInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(ReplaceTranslationSettingsInput)(input)
        const { member } = yield* administer(organizationId, "change translation settings")
        const current = yield* find(organizationId, id)
        const updated: TranslationSettings = {
          ...current,
          title: valid.title,
          languages: valid.languages ?? current.languages,
          updatedAt: yield* now
        }
        yield* repository.update(updated)
        return viewOf(member, updated)
      })

    const remove = (organizationId: OrganizationId, id: TranslationSettingsId) =>
      Effect.gen(function*() {
        yield* administer(organizationId, "delete translation settings")
        yield* find(organizationId, id)
        yield* repository.remove(id)
      })

    return { list, create, get, replace, remove } as const
  })
}) {}
