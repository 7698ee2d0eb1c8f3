import { Effect } from "effect"
import { Actor } from "../identity/Actor.js"
import { OrganizationId, type UserId } from "../shared/Ids.js"
import { EmailDomain, validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { PreconditionFailed } from "../shared/Errors.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { makeAccess } from "./Access.js"
import {
  CreateOrganizationInput,
  type Member,
  type Organization,
  UpdateOrganizationInput
} from "./Organization.js"
import { noOrganizationPermissions, organizationPermissions, type OrganizationPermissions, requireRole } from "./Policy.js"
import { MemberRepository, OrganizationRepository, SsoProviders, TeamRepository } from "./Ports.js"

/** An organization with what the caller may do in it. */
export interface OrganizationView {
  readonly organization: Organization
  readonly permissions: OrganizationPermissions
}

/** An optional field after a patch: kept when absent from it, removed by null, else replaced. */
const clearable = <K extends string, V>(key: K, patch: V | null | undefined, current: V | undefined): { [P in K]?: V } => {
  const value = patch === undefined ? current : patch === null ? undefined : patch
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}

const normalizeDomains = (domains: ReadonlyArray<string>): ReadonlyArray<string> => Array.from(new Set(domains.map((d) => d.toLowerCase())))

export class Organizations extends Effect.Service<Organizations>()("@octavo/domain/Organizations", {
  effect: Effect.gen(function*() {
    const organizations = yield* OrganizationRepository
    const members = yield* MemberRepository
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const teams = yield* TeamRepository
    const accessOrganization = yield* makeAccess
    const ssoProviders = yield* SsoProviders

    const view = (organization: Organization, member: Member) =>
      Effect.map(
        teams.ownsAny(member.organizationId, member.userId),
        (owns): OrganizationView => ({ organization, permissions: organizationPermissions(member, owns) })
      )

    /** The view of a non-member (an organization it could join) grants nothing. */
    const viewAs = (organization: Organization, member: Member | undefined) =>
      member === undefined
        ? Effect.succeed<OrganizationView>({ organization, permissions: noOrganizationPermissions })
        : view(organization, member)

    /** The user's member records in these organizations, by organization id: one query for a whole page. */
    const rolesOf = (userId: UserId, found: ReadonlyArray<Organization>) =>
      Effect.map(
        members.membershipsOf(userId, found.map((o) => o.id)),
        (records) => new Map(records.map((member) => [member.organizationId as string, member]))
      )

    /** Any authenticated user may create an organization and becomes its admin. */
    const create = (input: CreateOrganizationInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateOrganizationInput)(input)
        const actor = yield* Actor
        const createdAt = yield* now
        const organization: Organization = {
          id: OrganizationId.make(yield* secrets.newId),
          title: valid.title,
          createdAt,
          emailDomains: normalizeDomains(valid.emailDomains ?? []),
          defaultRole: "read",
          sso: false,
          ai: false,
          inviteLinks: true
        }
        const member: Member = {
          organizationId: organization.id,
          userId: actor.id,
          role: "admin",
          joinedAt: createdAt,
          sso: false,
          disabled: false
        }
        yield* uow.transaction(Effect.gen(function*() {
          yield* organizations.insert(organization)
          yield* members.insert(member).pipe(Effect.orDie)
        }))
        return yield* view(organization, member)
      })

    const get = (organizationId: OrganizationId) =>
      Effect.flatMap(accessOrganization(organizationId), ({ member, organization }) => view(organization, member))

    /** The caller's organizations. */
    const listMine = (page: PageRequest) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        const result = yield* organizations.listForUser(actor.id, page)
        const roles = yield* rolesOf(actor.id, result.items)
        const items = yield* Effect.forEach(result.items, (organization) => viewAs(organization, roles.get(organization.id)))
        return { ...result, items }
      })

    const update = (organizationId: OrganizationId, input: UpdateOrganizationInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateOrganizationInput)(input)
        const { member, organization } = yield* accessOrganization(organizationId)
        yield* requireRole(member, "admin", "change the organization's settings")
        // Absent fields stay as they are; null clears the optional ones.
        const { defaultContent, hostname, logo, ...rest } = organization
        const updated: Organization = {
          ...rest,
          title: valid.title ?? organization.title,
          emailDomains: valid.emailDomains !== undefined ? normalizeDomains(valid.emailDomains) : organization.emailDomains,
          defaultRole: valid.defaultRole !== undefined ? valid.defaultRole : organization.defaultRole,
          sso: valid.sso ?? organization.sso,
          ai: valid.ai ?? organization.ai,
          inviteLinks: valid.inviteLinks ?? organization.inviteLinks,
          ...clearable("hostname", valid.hostname, hostname),
          ...clearable("logo", valid.logo, logo),
          ...clearable("defaultContent", valid.defaultContent, defaultContent)
        }
        yield* uow.transaction(Effect.gen(function*() {
          // Enforcing SSO needs a provider to sign in with (conventions-2.md §4).
          if (valid.sso === true && !(yield* ssoProviders.hasActive(organizationId))) {
            return yield* new PreconditionFailed({
              reason: "sso: the organization has no active SAML provider; register one with an entityID, ssoURL and certificate first"
            })
          }
          yield* organizations.update(updated)
        }))
        return yield* view(updated, member)
      })

    /**
     * Organizations whose email domains include `domain`: those the caller belongs to, and,
     * when the domain is the caller's own email domain, every one it could join.
     */
    const byEmailDomain = (domain: string) =>
      Effect.gen(function*() {
        const valid = (yield* validate(EmailDomain)(domain)).toLowerCase()
        const actor = yield* Actor
        const found = yield* organizations.findByEmailDomain(valid)
        const ownDomain = actor.email.split("@")[1]?.toLowerCase() === valid
        const roles = yield* rolesOf(actor.id, found)
        return yield* Effect.forEach(
          found.filter((organization) => roles.has(organization.id) || ownDomain || actor.isInstanceAdmin),
          (organization) => viewAs(organization, roles.get(organization.id))
        )
      })

    /** Records that the caller was seen now. */
    const ping = (organizationId: OrganizationId) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        const seenAt = yield* now
        yield* members.update({ ...member, lastSeenAt: seenAt })
        return { organizationId, userId: member.userId, role: member.role, seenAt }
      })

    return { create, get, listMine, update, byEmailDomain, ping } as const
  })
}) {}
