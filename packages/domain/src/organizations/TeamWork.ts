import { Effect, Option, Schema } from "effect"
import { UserRepository } from "../identity/Ports.js"
import { Forbidden, InvalidInput, NotFound } from "../shared/Errors.js"
import type { OrganizationId, TeamId, UserId } from "../shared/Ids.js"
import type { Membership } from "./Access.js"
import { MemberRef } from "./Organization.js"
import { canManageTeam, requireNotGuest } from "./Policy.js"
import { MemberRepository, TeamRepository } from "./Ports.js"

/**
 * What the teams' services share: finding a team the actor may read, requiring that the actor
 * manages it, and resolving the members named in a body.
 */
export const makeTeamWork = Effect.gen(function*() {
  const teams = yield* TeamRepository
  const members = yield* MemberRepository
  const users = yield* UserRepository

  const teamNotFound = (teamId: string) => new NotFound({ entity: "team", id: teamId })

  /** A team of the organization, which the actor may read. */
  const findTeam = (access: Membership, teamId: TeamId) =>
    Effect.gen(function*() {
      yield* requireNotGuest(access.member, "read teams")
      const team = yield* teams.findById(teamId)
      if (Option.isNone(team) || team.value.team.organizationId !== access.organization.id) {
        return yield* teamNotFound(teamId)
      }
      return team.value
    })

  const requireTeamManager = (access: Membership, teamId: TeamId) =>
    Effect.gen(function*() {
      const own = yield* teams.findMembership(teamId, access.member.userId)
      if (!canManageTeam(access.member, Option.getOrUndefined(own))) {
        return yield* new Forbidden({ action: "manage this team", required: "the admin role or team ownership" })
      }
    })

  /** Resolves user ids or emails to members of the organization; anything else is invalid input. */
  const resolveMembers = (organizationId: OrganizationId, field: string, refs: ReadonlyArray<string>) =>
    Effect.forEach(refs, (ref) =>
      Effect.gen(function*() {
        // The memberships' keys arrive unchecked (the lists are checked by MemberRef): no storage is asked of others.
        if (Option.isNone(Schema.decodeUnknownOption(MemberRef)(ref))) {
          return yield* new InvalidInput({ field, rule: `${ref.slice(0, 64)} must be a user id or an email address` })
        }
        const user = ref.includes("@")
          ? yield* users.findByEmail(ref.toLowerCase())
          : yield* users.findById(ref as UserId)
        const member = Option.isSome(user) ? yield* members.find(organizationId, user.value.id) : Option.none()
        if (Option.isNone(member)) {
          return yield* new InvalidInput({ field, rule: `${ref} is not a member of this organization` })
        }
        return member.value.userId
      }))

  return { findTeam, requireTeamManager, resolveMembers } as const
})
