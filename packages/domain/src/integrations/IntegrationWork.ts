import { Effect, Option, Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import type { Member, Organization } from "../organizations/Organization.js"
import type { OrganizationView } from "../organizations/OrganizationService.js"
import { isAdmin, noOrganizationPermissions, organizationPermissions } from "../organizations/Policy.js"
import { MemberRepository, OrganizationRepository, TeamRepository } from "../organizations/Ports.js"
import { Forbidden, InvalidInput, NotFound } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { type Keyset, MAX_LIMIT, type Page } from "../shared/Pagination.js"
import { type Integration, IntegrationName, type IntegrationPermissions } from "./Integration.js"
import { canSee, integrationPermissions } from "./Policy.js"
import { IntegrationRepository } from "./Ports.js"

/** An integration with its owner and what the caller may do with it. */
export interface IntegrationView {
  readonly integration: Integration
  readonly owner: OrganizationView
  readonly permissions: IntegrationPermissions
}

/** The caller's organizations and member records, read once per use case. */
export interface Caller {
  readonly organizations: ReadonlyArray<Organization>
  readonly memberships: ReadonlyArray<Member>
}

export const unique = <A>(values: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(values)]

const isName = Schema.is(IntegrationName)

/**
 * What the integrations context's services share: the caller's organizations, read once per use
 * case, the integrations it may see, the organizations it administers, and views with their owners.
 */
export const makeIntegrationWork = Effect.gen(function*() {
  const integrations = yield* IntegrationRepository
  const organizations = yield* OrganizationRepository
  const members = yield* MemberRepository
  const teams = yield* TeamRepository

  const callerOf: Effect.Effect<Caller, never, Actor> = Effect.gen(function*() {
    const actor = yield* Actor
    const found: Array<Organization> = []
    let after: Option.Option<Keyset> = Option.none()
    do {
      const page: Page<Organization> = yield* organizations.listForUser(actor.id, { limit: MAX_LIMIT, after })
      found.push(...page.items)
      after = page.next
    } while (Option.isSome(after))
    const records = yield* members.membershipsOf(actor.id, found.map((o) => o.id))
    return { organizations: found, memberships: records }
  })

  /** The caller's organization named by id or hostname, where it is an admin: a body reference (400), then the role (403). */
  const administered = (reference: string, caller: Caller, action: string) =>
    Effect.gen(function*() {
      const organization = caller.organizations.find((o) => o.id === reference || o.hostname === reference.toLowerCase())
      const member = caller.memberships.find((m) => m.organizationId === organization?.id)
      if (organization === undefined || member === undefined) {
        return yield* new InvalidInput({
          field: "organization",
          rule: "must name an organization you are a member of, by its id or its hostname"
        })
      }
      if (!isAdmin(member)) return yield* new Forbidden({ action, required: "the admin role in that organization" })
      return organization
    })

  const ownerView = (ownerId: OrganizationId, caller: Caller) =>
    Effect.gen(function*() {
      const member = caller.memberships.find((m) => m.organizationId === ownerId)
      const organization = caller.organizations.find((o) => o.id === ownerId) ??
        Option.getOrThrowWith(yield* organizations.findById(ownerId), () => new Error(`integration owner ${ownerId} is missing`))
      if (member === undefined) {
        // Others see who publishes it, not whose addresses join it.
        return { organization: { ...organization, emailDomains: [] }, permissions: noOrganizationPermissions } satisfies OrganizationView
      }
      const owned = yield* teams.list(ownerId, { ownedBy: member.userId }, { limit: 1, after: Option.none() })
      return { organization, permissions: organizationPermissions(member, owned.count > 0) } satisfies OrganizationView
    })

  const viewsOf = (found: ReadonlyArray<Integration>, caller: Caller) =>
    Effect.gen(function*() {
      const owners = new Map<string, OrganizationView>()
      const views: Array<IntegrationView> = []
      for (const integration of found) {
        const owner = owners.get(integration.ownerId) ?? (yield* ownerView(integration.ownerId, caller))
        owners.set(integration.ownerId, owner)
        views.push({ integration, owner, permissions: integrationPermissions(integration, caller.memberships) })
      }
      return views
    })

  const viewOf = (integration: Integration, caller: Caller) => Effect.map(viewsOf([integration], caller), (views) => views[0]!)

  /** The integration as the caller may see it: a private one of another organization does not exist for it. */
  const visible = (name: string, caller: Caller) =>
    Effect.gen(function*() {
      const found = isName(name) ? yield* integrations.findByName(name) : Option.none()
      if (Option.isNone(found) || !canSee(found.value, caller.memberships)) {
        return yield* new NotFound({ entity: "integration", id: name })
      }
      return found.value
    })

  return { callerOf, administered, viewsOf, viewOf, visible } as const
})
