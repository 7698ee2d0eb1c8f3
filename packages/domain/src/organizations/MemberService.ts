import { Effect } from "effect"
import { Actor } from "../identity/Actor.js"
import { Conflict, NotFound } from "../shared/Errors.js"
import type { OrganizationId, UserId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { MemberRole } from "../shared/Role.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { makeAccess } from "./Access.js"
import type { Member } from "./Organization.js"
import { isAdmin, requireNotGuest, requireRole, teamPermissions } from "./Policy.js"
import { type MemberFilter, MemberRepository, type MemberWithUser, TeamRepository } from "./Ports.js"
import { makeTeamView } from "./TeamViews.js"

/** A member with its user and how many teams it is in. */
export type MemberView = MemberWithUser

export class Members extends Effect.Service<Members>()("@octavo/domain/Members", {
  effect: Effect.gen(function*() {
    const members = yield* MemberRepository
    const teams = yield* TeamRepository
    const uow = yield* UnitOfWork
    const accessOrganization = yield* makeAccess
    const teamView = yield* makeTeamView

    const memberNotFound = (userId: UserId) => new NotFound({ entity: "member", id: userId })

    /** Loads a member of an organization with its user and team count. */
    const findMember = (organizationId: OrganizationId, userId: UserId) =>
      Effect.flatMap(members.findMany(organizationId, [userId]), (found) => {
        const view = found[0]
        return view === undefined ? Effect.fail(memberNotFound(userId)) : Effect.succeed(view)
      })

    /** The last admin can neither leave nor be demoted: an organization always has one. */
    const keepAnAdmin = (member: Member, becomes: MemberRole | "removed") =>
      Effect.gen(function*() {
        if (!isAdmin(member) || becomes === "admin") return
        const admins = yield* members.countWithRole(member.organizationId, "admin")
        if (admins <= 1) {
          return yield* new Conflict({
            reason: becomes === "removed"
              ? "The last admin of an organization cannot be removed"
              : "The last admin of an organization cannot be demoted"
          })
        }
      })

    const list = (organizationId: OrganizationId, filter: MemberFilter, page: PageRequest) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        yield* requireNotGuest(member, "list members")
        return yield* members.list(organizationId, filter, page)
      })

    /** Guests see only their own member record. */
    const get = (organizationId: OrganizationId, userId: UserId) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        if (member.userId !== userId) yield* requireNotGuest(member, "read other members")
        return yield* findMember(organizationId, userId)
      })

    /** Admins remove anyone; any member may leave. */
    const remove = (organizationId: OrganizationId, userId: UserId) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        const actor = yield* Actor
        if (actor.id !== userId) yield* requireRole(member, "admin", "remove members")
        const target = yield* findMember(organizationId, userId)
        yield* uow.transaction(Effect.gen(function*() {
          yield* keepAnAdmin(target.member, "removed")
          yield* members.delete(organizationId, userId)
        }))
      })

    const updateRole = (organizationId: OrganizationId, userId: UserId, role: MemberRole | undefined) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        yield* requireRole(member, "admin", "change members' roles")
        const target = yield* findMember(organizationId, userId)
        if (role === undefined) return target
        const valid = yield* validate(MemberRole)(role)
        const updated: Member = { ...target.member, role: valid }
        yield* uow.transaction(Effect.gen(function*() {
          yield* keepAnAdmin(target.member, valid)
          yield* members.update(updated)
        }))
        return { ...target, member: updated } satisfies MemberView
      })

    const markSso = (organizationId: OrganizationId, userId: UserId) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        yield* requireRole(member, "admin", "mark members as SSO members")
        const target = yield* findMember(organizationId, userId)
        const updated: Member = { ...target.member, sso: true }
        yield* members.update(updated)
        return { ...target, member: updated } satisfies MemberView
      })

    /** The teams a member belongs to, with its role in each and what the caller may do with each. */
    const teamsOf = (
      organizationId: OrganizationId,
      userId: UserId,
      filter: { readonly title?: string | undefined },
      page: PageRequest
    ) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        if (member.userId !== userId) yield* requireNotGuest(member, "read other members' teams")
        yield* findMember(organizationId, userId)
        const result = yield* teams.listForUser(organizationId, userId, filter, page)
        const items = yield* Effect.forEach(result.items, ({ membership, team }) =>
          Effect.map(
            // The caller's own list needs no lookup: the membership listed is its own.
            member.userId === userId
              ? Effect.succeed({ ...team, permissions: teamPermissions(member, membership) })
              : teamView(member, team),
            (view) => ({ team: view, membership })
          ))
        return { ...result, items }
      })

    return { list, get, remove, updateRole, markSso, teamsOf, findMember } as const
  })
}) {}
