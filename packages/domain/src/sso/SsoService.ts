import { Effect, Either, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import { makeAccess } from "../organizations/Access.js"
import type { Member } from "../organizations/Organization.js"
import { requireRole } from "../organizations/Policy.js"
import { OrganizationRepository, TeamRepository } from "../organizations/Ports.js"
import { makeTeamView, type TeamView } from "../organizations/TeamViews.js"
import { InvalidInput, NotFound, PreconditionFailed } from "../shared/Errors.js"
import type { OrganizationId, TeamId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { Certificates, SamlProviderRepository } from "./Ports.js"
import {
  CreateSamlProviderInput,
  type SamlProvider,
  SamlProviderId,
  statusOf,
  SubdomainName,
  UpdateSamlProviderInput
} from "./SamlProvider.js"

/** A provider with its default team, when it has one that still exists, as the caller sees it. */
export interface SamlProviderView {
  readonly provider: SamlProvider
  readonly defaultTeam?: TeamView
}

/** What a member needs to sign in with an active provider; its start URL is the HTTP layer's to make. */
export interface SsoLogin {
  readonly id: SamlProviderId
  readonly label: string
}

/** The organization a subdomain names. */
export interface SubdomainTarget {
  readonly subdomain: string
  readonly organizationId: OrganizationId
}

/** The provider's fields a create or a patch sets. */
type Settings = Pick<SamlProvider, "entityID" | "ssoURL" | "certificate" | "defaultTeamId" | "defaultRole">

/** An object without the keys whose value is undefined: an unset field is absent, not undefined. */
const defined = <A extends object>(fields: A): A =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as A

/**
 * SSO (conventions-2.md §4): an organization's SAML providers, administered by its admins; the
 * active ones members sign in with; subdomains, which are organizations' hostnames.
 */
export class Sso extends Effect.Service<Sso>()("@octavo/domain/Sso", {
  effect: Effect.gen(function*() {
    const providers = yield* SamlProviderRepository
    const teams = yield* TeamRepository
    const organizations = yield* OrganizationRepository
    const certificates = yield* Certificates
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const accessOrganization = yield* makeAccess
    const teamView = yield* makeTeamView

    /** The organization as its admin sees it: non-members are told it does not exist, other members may not. */
    const administer = (organizationId: OrganizationId, action: string) =>
      Effect.tap(accessOrganization(organizationId), ({ member }) => requireRole(member, "admin", action))

    const find = (organizationId: OrganizationId, id: SamlProviderId) =>
      Effect.flatMap(
        providers.findById(id),
        (found) =>
          Option.isSome(found) && found.value.organizationId === organizationId
            ? Effect.succeed(found.value)
            : Effect.fail(new NotFound({ entity: "SAML provider", id }))
      )

    /** A team that was deleted since it was chosen is no default team any more. */
    const viewOf = (caller: Member, provider: SamlProvider) =>
      Effect.gen(function*() {
        const team = provider.defaultTeamId === undefined ? Option.none() : yield* teams.findById(provider.defaultTeamId)
        return Option.isSome(team) && team.value.team.organizationId === provider.organizationId
          ? { provider, defaultTeam: yield* teamView(caller, team.value) }
          : { provider }
      })

    const normalized = (text: string) =>
      Either.match(certificates.normalize(text), {
        onLeft: (rule) => Effect.fail(new InvalidInput({ field: "certificate", rule })),
        onRight: Effect.succeed
      })

    /** One message for a team that does not exist and one of another organization. */
    const teamOf = (organizationId: OrganizationId, ref: string) =>
      Effect.gen(function*() {
        const idShaped = /^[A-Za-z0-9_-]{1,64}$/.test(ref)
        const team = idShaped ? yield* teams.findById(ref as TeamId) : Option.none()
        if (Option.isSome(team) && team.value.team.organizationId === organizationId) return team.value.team.id
        return yield* new InvalidInput({
          field: "defaultTeam",
          rule: idShaped ? `${ref} is not a team of this organization` : "must be the id of a team of this organization"
        })
      })

    /** The settings after a create or a patch: absent fields keep `current`; a null defaultTeam clears it. */
    const settle = (organizationId: OrganizationId, current: Settings, input: UpdateSamlProviderInput) =>
      Effect.gen(function*() {
        const certificate = input.certificate === undefined ? current.certificate : yield* normalized(input.certificate)
        const defaultTeamId = input.defaultTeam === undefined
          ? current.defaultTeamId
          : input.defaultTeam === null
          ? undefined
          : yield* teamOf(organizationId, input.defaultTeam)
        return defined<Settings>({
          entityID: input.entityID ?? current.entityID,
          ssoURL: input.ssoURL ?? current.ssoURL,
          certificate,
          defaultTeamId,
          defaultRole: input.defaultRole !== undefined ? input.defaultRole : current.defaultRole
        })
      })

    const list = (organizationId: OrganizationId, page: PageRequest) =>
      Effect.gen(function*() {
        const { member } = yield* administer(organizationId, "read the organization's SAML providers")
        const found = yield* providers.list(organizationId, page)
        return { ...found, items: yield* Effect.forEach(found.items, (provider) => viewOf(member, provider)) }
      })

    const create = (organizationId: OrganizationId, input: CreateSamlProviderInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateSamlProviderInput)(input)
        const { member } = yield* administer(organizationId, "register SAML providers")
        const settings = yield* settle(organizationId, { defaultRole: null }, valid)
        const provider: SamlProvider = {
          id: SamlProviderId.make(yield* secrets.newId),
          organizationId,
          label: valid.label.trim(),
          ...settings,
          status: statusOf(settings),
          createdAt: yield* now
        }
        yield* providers.insert(provider)
        return yield* viewOf(member, provider)
      })

    const get = (organizationId: OrganizationId, id: SamlProviderId) =>
      Effect.gen(function*() {
        const { member } = yield* administer(organizationId, "read the organization's SAML providers")
        return yield* viewOf(member, yield* find(organizationId, id))
      })

    const update = (organizationId: OrganizationId, id: SamlProviderId, input: UpdateSamlProviderInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateSamlProviderInput)(input)
        const { member } = yield* administer(organizationId, "change SAML providers")
        const current = yield* find(organizationId, id)
        const settings = yield* settle(organizationId, current, valid)
        // Set fields cannot be unset, so an active provider stays active and SSO keeps a way in.
        const updated: SamlProvider = {
          id: current.id,
          organizationId: current.organizationId,
          label: valid.label?.trim() ?? current.label,
          ...settings,
          status: statusOf(settings),
          createdAt: current.createdAt
        }
        yield* providers.update(updated)
        return yield* viewOf(member, updated)
      })

    /** An organization that enforces SSO keeps its last active provider: turn `sso` off first. */
    const remove = (organizationId: OrganizationId, id: SamlProviderId) =>
      Effect.gen(function*() {
        yield* administer(organizationId, "remove SAML providers")
        yield* uow.transaction(Effect.gen(function*() {
          yield* providers.lockOrganization(organizationId)
          const provider = yield* find(organizationId, id)
          const organization = yield* organizations.findById(organizationId)
          if (provider.status === "active" && Option.exists(organization, (o) => o.sso)) {
            const active = yield* providers.active(organizationId)
            if (active.every((p) => p.id === id)) {
              return yield* new PreconditionFailed({
                reason: "The organization enforces SSO and this is its last active SAML provider: set the organization's sso to false first"
              })
            }
          }
          yield* providers.remove(id)
        }))
      })

    /** The active providers, for every member (guests included) to sign in with (decision 3). */
    const logins = (organizationId: OrganizationId) =>
      Effect.gen(function*() {
        yield* accessOrganization(organizationId)
        const active = yield* providers.active(organizationId)
        return active.map((provider): SsoLogin => ({ id: provider.id, label: provider.label }))
      })

    /** The organization whose hostname the subdomain is; any authenticated user may ask. */
    const subdomain = (name: string) =>
      Effect.gen(function*() {
        const valid = yield* validate(SubdomainName)(name)
        yield* Actor
        const organization = yield* organizations.findByHostname(valid)
        if (Option.isNone(organization)) return yield* new NotFound({ entity: "subdomain", id: valid })
        return { subdomain: valid, organizationId: organization.value.id } satisfies SubdomainTarget
      })

    return { list, create, get, update, remove, logins, subdomain } as const
  })
}) {}
