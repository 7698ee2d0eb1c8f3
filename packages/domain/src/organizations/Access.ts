import { Effect, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import { NotFound } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { Member, Organization } from "./Organization.js"
import { MemberRepository, OrganizationRepository } from "./Ports.js"

export interface Membership {
  readonly organization: Organization
  /** The actor's member record in the organization. */
  readonly member: Member
}

/**
 * The organization as the actor sees it. Non-members are told it does not exist,
 * so that no one learns of another organization's objects.
 */
export const makeAccess = Effect.gen(function*() {
  const organizations = yield* OrganizationRepository
  const members = yield* MemberRepository
  return (organizationId: OrganizationId) =>
    Effect.gen(function*() {
      const actor = yield* Actor
      // Built only on the way out: an error captures a stack trace, which a member should not pay for.
      const notFound = () => new NotFound({ entity: "organization", id: organizationId })
      const member = yield* members.find(organizationId, actor.id)
      if (Option.isNone(member)) return yield* notFound()
      const organization = yield* organizations.findById(organizationId)
      if (Option.isNone(organization)) return yield* notFound()
      return { organization: organization.value, member: member.value } satisfies Membership
    })
})
