import { Effect, Option } from "effect"
import { Actor } from "../identity/Actor.js"
import { NotFound } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { Member, Organization } from "./Organization.js"
import { MemberRepository } from "./Ports.js"

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
  const members = yield* MemberRepository
  return (organizationId: OrganizationId) =>
    Effect.gen(function*() {
      const actor = yield* Actor
      // Built only on the way out: an error captures a stack trace, which a member should not pay for.
      const notFound = () => new NotFound({ entity: "organization", id: organizationId })
      const found = yield* members.findWithOrganization(organizationId, actor.id)
      if (Option.isNone(found)) return yield* notFound()
      return found.value satisfies Membership
    })
})
