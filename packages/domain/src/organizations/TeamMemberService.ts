import { Effect, Option } from "effect"
import { NotFound } from "../shared/Errors.js"
import type { OrganizationId, TeamId, UserId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import type { TeamRole } from "../shared/Role.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { makeAccess } from "./Access.js"
import { type MemberView, Members } from "./MemberService.js"
import { TeamMembersUpdate, type TeamMembership } from "./Organization.js"
import { teamMemberPermissions, type TeamMemberPermissions } from "./Policy.js"
import { MemberRepository, TeamRepository } from "./Ports.js"
import { makeTeamWork } from "./TeamWork.js"

/** A member of a team, its place in the team, and whether the caller may read it. */
export interface TeamMemberView {
  readonly member: MemberView
  readonly membership: TeamMembership
  readonly permissions: TeamMemberPermissions
}

/** A team's members, their part of the API's `teams` group: listing them, and adding, changing and removing them. */
export class TeamMembers extends Effect.Service<TeamMembers>()("@octavo/domain/TeamMembers", {
  effect: Effect.gen(function*() {
    const teams = yield* TeamRepository
    const members = yield* MemberRepository
    const memberService = yield* Members
    const uow = yield* UnitOfWork
    const accessOrganization = yield* makeAccess
    const { findTeam, requireTeamManager, resolveMembers } = yield* makeTeamWork

    /** Adds a user to a team, or sets its team role; without a role a newcomer is a `member` and others keep theirs. */
    const placeInTeam = (organizationId: OrganizationId, teamId: TeamId, userId: UserId, role: TeamRole | undefined) =>
      Effect.gen(function*() {
        const existing = yield* teams.findMembership(teamId, userId)
        yield* teams.upsertMembership({
          teamId,
          organizationId,
          userId,
          role: role ?? Option.match(existing, { onNone: () => "member" as const, onSome: (m) => m.role }),
          addedAt: Option.isSome(existing) ? existing.value.addedAt : yield* now
        })
      })

    const listMembers = (organizationId: OrganizationId, teamId: TeamId, page: PageRequest) =>
      Effect.gen(function*() {
        const access = yield* accessOrganization(organizationId)
        yield* findTeam(access, teamId)
        const result = yield* teams.listMemberships(teamId, page)
        const found = yield* members.findMany(organizationId, result.items.map((m) => m.userId))
        const byUser = new Map(found.map((view) => [view.member.userId, view]))
        // Removing a member removes its team places in the same unit of work, so every one is found.
        const items = result.items.flatMap((membership): Array<TeamMemberView> => {
          const member = byUser.get(membership.userId)
          return member === undefined ? [] : [{ member, membership, permissions: teamMemberPermissions(access.member) }]
        })
        return { ...result, items } satisfies Page<TeamMemberView>
      })

    /**
     * Applies `add`, then `memberships`, then `remove`, atomically: a user in both
     * `add` and `remove` ends up removed. Every reference must be a member of the organization.
     */
    const updateMembers = (organizationId: OrganizationId, teamId: TeamId, input: TeamMembersUpdate) =>
      Effect.gen(function*() {
        const valid = yield* validate(TeamMembersUpdate)(input)
        const access = yield* accessOrganization(organizationId)
        yield* findTeam(access, teamId)
        yield* requireTeamManager(access, teamId)
        const add = yield* resolveMembers(organizationId, "add", valid.add ?? [])
        const remove = yield* resolveMembers(organizationId, "remove", valid.remove ?? [])
        const entries = Object.entries(valid.memberships ?? {})
        const roles = yield* resolveMembers(organizationId, "memberships", entries.map(([ref]) => ref))
        yield* uow.transaction(Effect.gen(function*() {
          yield* Effect.forEach(add, (userId) => placeInTeam(organizationId, teamId, userId, undefined), { discard: true })
          yield* Effect.forEach(roles, (userId, i) => placeInTeam(organizationId, teamId, userId, entries[i]?.[1].role), { discard: true })
          yield* Effect.forEach(remove, (userId) => teams.deleteMembership(teamId, userId), { discard: true })
        }))
      })

    /** Adds a member to the team or changes its team role. */
    const putMember = (organizationId: OrganizationId, teamId: TeamId, userId: UserId, role: TeamRole | undefined) =>
      Effect.gen(function*() {
        const access = yield* accessOrganization(organizationId)
        yield* findTeam(access, teamId)
        yield* requireTeamManager(access, teamId)
        yield* memberService.findMember(organizationId, userId)
        yield* placeInTeam(organizationId, teamId, userId, role)
      })

    const removeMember = (organizationId: OrganizationId, teamId: TeamId, userId: UserId) =>
      Effect.gen(function*() {
        const access = yield* accessOrganization(organizationId)
        yield* findTeam(access, teamId)
        yield* requireTeamManager(access, teamId)
        const existing = yield* teams.findMembership(teamId, userId)
        if (Option.isNone(existing)) return yield* new NotFound({ entity: "team member", id: userId })
        yield* teams.deleteMembership(teamId, userId)
      })

    return { listMembers, updateMembers, putMember, removeMember } as const
  })
}) {}
