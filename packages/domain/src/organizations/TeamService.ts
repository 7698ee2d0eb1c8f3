import { Effect, Option } from "effect"
import { InvalidInput } from "../shared/Errors.js"
import { type OrganizationId, TeamId, type UserId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { makeAccess } from "./Access.js"
import { CreateTeamInput, type Team, TeamTitle } from "./Organization.js"
import { isAdmin, requireNotGuest, requireRole } from "./Policy.js"
import { MemberRepository, TeamRepository } from "./Ports.js"
import { makeTeamView } from "./TeamViews.js"
import { makeTeamWork } from "./TeamWork.js"

/** Teams, the teams' part of the API's `teams` group: creating, reading, listing, renaming and deleting; their members are `TeamMembers`. */
export class Teams extends Effect.Service<Teams>()("@octavo/domain/Teams", {
  effect: Effect.gen(function*() {
    const teams = yield* TeamRepository
    const members = yield* MemberRepository
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const accessOrganization = yield* makeAccess
    const teamView = yield* makeTeamView
    const { findTeam, requireTeamManager, resolveMembers } = yield* makeTeamWork

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

    return { create, get, rename, remove, list } as const
  })
}) {}
