import { Effect, Option, Schema } from "effect"
import { isAdmin } from "../organizations/Policy.js"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../shared/Errors.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import {
  InstallationId,
  type InstallationStatus,
  InstallIntegrationInput,
  type Integration,
  type IntegrationInstallation,
  UpdateInstallationInput
} from "./Integration.js"
import { makeIntegrationWork, unique } from "./IntegrationWork.js"
import { administersOwner, installableIn, installationStatus } from "./Policy.js"
import { InstallationRepository, IntegrationRepository } from "./Ports.js"

export interface InstallationView {
  readonly installation: IntegrationInstallation
  readonly status: InstallationStatus
}

const isInstallationId = Schema.is(InstallationId)

const viewInstallation = (integration: Integration, installation: IntegrationInstallation): InstallationView => ({
  installation,
  status: installationStatus(integration, installation.configuration)
})

/** Values of the account configuration's declared properties must have their declared type. */
const checkConfiguration = (integration: Integration, configuration: IntegrationInstallation["configuration"]) =>
  Effect.forEach(Object.entries(configuration), ([key, value]) => {
    const properties = integration.configurations?.account?.properties
    // Own properties only: a key such as `constructor` or `__proto__` names no inherited member.
    const property = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined
    if (property === undefined || value === null || property.type === "button") return Effect.void
    const field = `configuration.${key}`
    if (typeof value !== property.type) return Effect.fail(new InvalidInput({ field, rule: `must be a ${property.type}` }))
    if (property.type === "string" && property.enum !== undefined && !property.enum.includes(value as string)) {
      return Effect.fail(new InvalidInput({ field, rule: `must be one of ${property.enum.join(", ")}` }))
    }
    return Effect.void
  }, { discard: true })

/**
 * Installations of integrations in organizations (conventions-2.md §7): installing a visible
 * integration, configuring, listing and uninstalling its installations.
 */
export class IntegrationInstallations extends Effect.Service<IntegrationInstallations>()("@octavo/domain/IntegrationInstallations", {
  effect: Effect.gen(function*() {
    const integrations = yield* IntegrationRepository
    const installations = yield* InstallationRepository
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const { administered, callerOf, visible } = yield* makeIntegrationWork

    /** Installs a visible integration in an organization the caller administers, once. */
    const install = (name: string, input: InstallIntegrationInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(InstallIntegrationInput)(input)
        const caller = yield* callerOf
        const integration = yield* visible(name, caller)
        const organization = yield* administered(valid.organization, caller, "install integrations in this organization")
        if (!installableIn(integration, organization.id)) {
          return yield* new InvalidInput({
            field: "organization",
            rule: "the integration is private to the organization that publishes it and installs only there"
          })
        }
        const at = yield* now
        const id = InstallationId.make(yield* secrets.newId)
        return yield* uow.transaction(Effect.gen(function*() {
          yield* integrations.lock(integration.name)
          // It may have been unpublished meanwhile.
          const current = yield* visible(name, caller)
          const installation: IntegrationInstallation = {
            id,
            integrationName: current.name,
            organizationId: organization.id,
            externalIds: [],
            configuration: {},
            spaceSelection: "all",
            siteSelection: "all",
            createdAt: at,
            updatedAt: at
          }
          yield* installations.insert(installation).pipe(
            Effect.mapError(() => new Conflict({ reason: `The integration ${current.name} is installed in this organization already` }))
          )
          return viewInstallation(current, installation)
        }))
      })

    /**
     * An installation of a visible integration, for the owner's admins and the admins of its
     * organization; its other members are refused (403), anyone else does not see it (404).
     */
    const accessInstallation = (name: string, id: string, action: string) =>
      Effect.gen(function*() {
        const caller = yield* callerOf
        const integration = yield* visible(name, caller)
        const found = isInstallationId(id) ? yield* installations.findById(id) : Option.none()
        if (Option.isNone(found) || found.value.integrationName !== integration.name) {
          return yield* new NotFound({ entity: "installation", id })
        }
        const installation = found.value
        const member = caller.memberships.find((m) => m.organizationId === installation.organizationId)
        if (!administersOwner(integration, caller.memberships) && !(member !== undefined && isAdmin(member))) {
          if (member === undefined) return yield* new NotFound({ entity: "installation", id })
          return yield* new Forbidden({ action, required: "the admin role in its organization" })
        }
        return { integration, installation }
      })

    const getInstallation = (name: string, id: string) =>
      Effect.map(
        accessInstallation(name, id, "read this installation"),
        ({ installation, integration }) => viewInstallation(integration, installation)
      )

    const updateInstallation = (name: string, id: string, input: UpdateInstallationInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateInstallationInput)(input)
        const { installation, integration } = yield* accessInstallation(name, id, "configure this installation")
        if (valid.configuration !== undefined) yield* checkConfiguration(integration, valid.configuration)
        const updated: IntegrationInstallation = {
          ...installation,
          externalIds: valid.externalIds !== undefined ? unique(valid.externalIds) : installation.externalIds,
          configuration: valid.configuration ?? installation.configuration,
          spaceSelection: valid.space_selection ?? installation.spaceSelection,
          siteSelection: valid.site_selection ?? installation.siteSelection,
          updatedAt: yield* now
        }
        yield* installations.update(updated)
        return viewInstallation(integration, updated)
      })

    const uninstall = (name: string, id: string) =>
      Effect.flatMap(
        accessInstallation(name, id, "uninstall this integration"),
        ({ installation }) => installations.remove(installation.id)
      )

    /** Owner admins list every installation; anyone else who sees the integration, those in organizations it administers. */
    const listInstallations = (name: string, filter: { readonly externalId?: string | undefined }, page: PageRequest) =>
      Effect.gen(function*() {
        const caller = yield* callerOf
        const integration = yield* visible(name, caller)
        const mine = administersOwner(integration, caller.memberships)
          ? undefined
          : caller.memberships.filter(isAdmin).map((m) => m.organizationId)
        const found = yield* installations.list(integration.name, { organizations: mine, externalId: filter.externalId }, page)
        return { ...found, items: found.items.map((installation) => viewInstallation(integration, installation)) }
      })

    return { install, getInstallation, updateInstallation, uninstall, listInstallations } as const
  })
}) {}
