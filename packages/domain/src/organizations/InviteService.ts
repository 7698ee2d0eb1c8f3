import { Effect, Option } from "effect"
import { UserRepository } from "../identity/Ports.js"
import { Actor } from "../identity/Actor.js"
import { Conflict, InvalidInput, NotFound, PreconditionFailed } from "../shared/Errors.js"
import { InviteId, type OrganizationId, type UserId } from "../shared/Ids.js"
import { Email, validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { MemberRole } from "../shared/Role.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { makeAccess } from "./Access.js"
import { type Invite, InviteByEmailInput, type Member } from "./Organization.js"
import { inviteIsRedundant, requireRole } from "./Policy.js"
import { InviteRepository, MemberRepository, OrganizationRepository } from "./Ports.js"

/** What inviting by email did: users who became members, and addresses with no account yet. */
export interface InviteByEmailResult {
  readonly users: ReadonlyArray<UserId>
  readonly invited: ReadonlyArray<string>
}

/** A link invite, and whether the caller already has everything it gives. */
export interface InviteView {
  readonly invite: Invite
  readonly redundant: boolean
}

export class Invites extends Effect.Service<Invites>()("@octavo/domain/Invites", {
  effect: Effect.gen(function*() {
    const invites = yield* InviteRepository
    const organizations = yield* OrganizationRepository
    const members = yield* MemberRepository
    const users = yield* UserRepository
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const accessOrganization = yield* makeAccess

    /** Link invites are admin business: their ids let anyone join. */
    const adminAccess = (organizationId: OrganizationId, action: string) =>
      Effect.tap(accessOrganization(organizationId), ({ member }) => requireRole(member, "admin", action))

    const findInvite = (organizationId: OrganizationId, inviteId: InviteId) =>
      Effect.flatMap(invites.findById(inviteId), (invite) =>
        Option.isSome(invite) && invite.value.organizationId === organizationId
          ? Effect.succeed(invite.value)
          : Effect.fail(new NotFound({ entity: "invite", id: inviteId })))

    const viewFor = (caller: Member) => (invite: Invite): InviteView => ({ invite, redundant: inviteIsRedundant(caller, invite) })

    const list = (organizationId: OrganizationId, page: PageRequest) =>
      Effect.gen(function*() {
        const { member } = yield* adminAccess(organizationId, "list invites")
        const result = yield* invites.list(organizationId, page)
        return { ...result, items: result.items.map(viewFor(member)) }
      })

    const create = (organizationId: OrganizationId, role: MemberRole) =>
      Effect.gen(function*() {
        const valid = yield* validate(MemberRole)(role)
        const { member } = yield* adminAccess(organizationId, "create invites")
        const invite: Invite = {
          id: InviteId.make(yield* secrets.newId),
          organizationId,
          role: valid,
          createdAt: yield* now
        }
        yield* invites.insert(invite)
        return viewFor(member)(invite)
      })

    const get = (organizationId: OrganizationId, inviteId: InviteId) =>
      Effect.flatMap(
        adminAccess(organizationId, "read invites"),
        ({ member }) => Effect.map(findInvite(organizationId, inviteId), viewFor(member))
      )

    const updateRole = (organizationId: OrganizationId, inviteId: InviteId, role: MemberRole) =>
      Effect.gen(function*() {
        const valid = yield* validate(MemberRole)(role)
        const { member } = yield* adminAccess(organizationId, "change invites")
        const invite = yield* findInvite(organizationId, inviteId)
        const updated: Invite = { ...invite, role: valid }
        yield* invites.update(updated)
        return viewFor(member)(updated)
      })

    const remove = (organizationId: OrganizationId, inviteId: InviteId) =>
      Effect.gen(function*() {
        yield* adminAccess(organizationId, "delete invites")
        yield* findInvite(organizationId, inviteId)
        yield* invites.delete(inviteId)
      })

    /** Joins the actor to the organization with the invite's role; the invite stays usable by others. */
    const join = (organizationId: OrganizationId, inviteId: InviteId) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        const invite = yield* findInvite(organizationId, inviteId)
        const organization = yield* organizations.findById(organizationId)
        if (Option.isNone(organization)) return yield* new NotFound({ entity: "invite", id: inviteId })
        if (!organization.value.inviteLinks) {
          return yield* new PreconditionFailed({ reason: "Invite links are disabled for this organization" })
        }
        const member: Member = {
          organizationId,
          userId: actor.id,
          role: invite.role,
          joinedAt: yield* now,
          sso: false,
          disabled: false
        }
        yield* members.insert(member).pipe(
          Effect.catchTag("Conflict", () => new Conflict({ reason: "You are a member of this organization already" }))
        )
        return member
      })

    /**
     * Adds existing users, found by email, as members. Each entry's role, else the body's, else the
     * organization's default role (null, in each, for a guest). With `sso`, they are SSO members.
     * Addresses without an account are returned in `invited` and nothing is stored for them.
     */
    const inviteByEmail = (organizationId: OrganizationId, input: InviteByEmailInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(InviteByEmailInput)(input)
        const { organization } = yield* adminAccess(organizationId, "invite members")
        const entries = valid.emails.map((entry) =>
          typeof entry === "string"
            ? { email: entry, role: valid.role !== undefined ? valid.role : organization.defaultRole }
            : entry
        )
        yield* Effect.forEach(entries, (entry, i) =>
          validate(Email)(entry.email).pipe(Effect.mapError((e) => new InvalidInput({ field: `emails.${i}`, rule: e.rule }))))
        const at = yield* now
        return yield* uow.transaction(Effect.gen(function*() {
          const added: Array<UserId> = []
          const invited: Array<string> = []
          for (const entry of entries) {
            const user = yield* users.findByEmail(entry.email.toLowerCase())
            if (Option.isNone(user)) {
              invited.push(entry.email)
              continue
            }
            const existing = yield* members.find(organizationId, user.value.id)
            if (Option.isSome(existing) || added.includes(user.value.id))
              continue
            yield* members.insert({
              organizationId,
              userId: user.value.id,
              role: entry.role,
              joinedAt: at,
              sso: valid.sso ?? false,
              disabled: false
            }).pipe(Effect.orDie)
            added.push(user.value.id)
          }
          return { users: added, invited } satisfies InviteByEmailResult
        }))
      })

    return { list, create, get, updateRole, remove, join, inviteByEmail } as const
  })
}) {}
