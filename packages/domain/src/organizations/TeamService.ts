import { Effect, Option, Schema } from "effect"
import { UserRepository } from "../identity/Ports.js"
import { Forbidden, InvalidInput, NotFound } from "../shared/Errors.js"
import { TeamId, type OrganizationId, type UserId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import type { TeamRole } from "../shared/Role.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { makeAccess, type Membership } from "./Access.js"
import { type MemberView, Members } from "./MemberService.js"
import { CreateTeamInput, MemberRef, type Team, TeamMembersUpdate, type TeamMembership, TeamTitle } from "./Organization.js"
import {
  canManageTeam,
  isAdmin,
  requireNotGuest,
  requireRole,
  teamMemberPermissions,
  type TeamMemberPermissions
} from "./Policy.js"
import { MemberRepository, TeamRepository } from "./Ports.js"
import { makeTeamView } from "./TeamViews.js"

/** A member of a team, its place in the team, and whether the caller may read it. */
export interface TeamMemberView {
  readonly member: MemberView
  readonly membership: TeamMembership
  readonly permissions: TeamMemberPermissions
}

export class Teams extends Effect.Service<Teams>()("@octavo/domain/Teams", {
  effect: Effect.gen(function*() {
    const teams = yield* TeamRepository
    const members = yield* MemberRepository
    const users = yield* UserRepository
    const memberService = yield* Members
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const accessOrganization = yield* makeAccess
    const teamView = yield* makeTeamView

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

    const create = (organizationId: OrganizationId, input: CreateTeamInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateTeamInput)(input)
        const access = yield* accessOrganization(organizationId)
        yield* requireRole(access.member, "admin", "create teams")
        const userIds = yield* resolveMembers(organizationId, "members", valid.members ?? [])
        const createdAt = yield* now
        const team: Team = { id: TeamId.make(yield* secrets.newId), organizationId, title: valid.title, createdAt }
        const unique = Array.from(new Set(userIds))
        yield* uow.transaction(Effect.gen(function*() {
          yield* teams.insert(team)
          yield* Effect.forEach(unique, (userId) =>
            teams.upsertMembership({ teamId: team.id, organizationId, userId, role: "member", addedAt: createdAt }), {
            discard: true
          })
        }))
        return yield* teamView(access.member, { team, members: unique.length })
      })

    const get = (organizationId: OrganizationId, teamId: TeamId) =>
      Effect.flatMap(
        accessOrganization(organizationId),
        (access) => Effect.flatMap(findTeam(access, teamId), (team) => teamView(access.member, team))
      )

    /** Admins and the team's owners rename a team. */
    const rename = (organizationId: OrganizationId, teamId: TeamId, title: string) =>
      Effect.gen(function*() {
        const valid = yield* validate(TeamTitle)(title)
        const access = yield* accessOrganization(organizationId)
        const found = yield* findTeam(access, teamId)
        yield* requireTeamManager(access, teamId)
        const team: Team = { ...found.team, title: valid }
        yield* teams.update(team)
        return yield* teamView(access.member, { ...found, team })
      })

    const remove = (organizationId: OrganizationId, teamId: TeamId) =>
      Effect.gen(function*() {
        const access = yield* accessOrganization(organizationId)
        yield* findTeam(access, teamId)
        yield* requireRole(access.member, "admin", "delete teams")
        yield* teams.delete(teamId)
      })

    /** `owner` keeps the teams that member can manage: all of them for an admin. */
    const list = (
      organizationId: OrganizationId,
      filter: { readonly owner?: string | undefined; readonly title?: string | undefined },
      page: PageRequest
    ) =>
      Effect.gen(function*() {
        const access = yield* accessOrganization(organizationId)
        yield* requireNotGuest(access.member, "list teams")
        let ownedBy: UserId | undefined
        if (filter.owner !== undefined) {
          const owner = yield* members.find(organizationId, filter.owner as UserId)
          if (Option.isNone(owner)) {
            return yield* new InvalidInput({ field: "owner", rule: `${filter.owner} is not a member of this organization` })
          }
          ownedBy = isAdmin(owner.value) ? undefined : owner.value.userId
        }
        const result = yield* teams.list(organizationId, { title: filter.title, ownedBy }, page)
        const items = yield* Effect.forEach(result.items, (team) => teamView(access.member, team))
        return { ...result, items }
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

    return { create, get, rename, remove, list, listMembers, updateMembers, putMember, removeMember } as const
  })
}) {}
