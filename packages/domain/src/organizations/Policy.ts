import { Effect } from "effect"
import { Forbidden } from "../shared/Errors.js"
import { atLeast, type Role } from "../shared/Role.js"
import type { Member, TeamMembership } from "./Organization.js"

/**
 * Who may do what in an organization (the README's permission table is this file):
 * - any member, guests included, reads the organization, pings, and reads its own member record;
 * - members with a role (not guests) read members, teams and team members;
 * - admins change the organization, members' roles, SSO flags, teams and invites, and remove members;
 * - a team's owners manage that team's members and title;
 * - any member may leave (remove itself), unless it is the last admin.
 */
export interface OrganizationPermissions {
  readonly admin: boolean
  readonly createContent: boolean
}

export const organizationPermissions = (member: Member): OrganizationPermissions => ({
  admin: atLeast(member.role, "admin"),
  createContent: atLeast(member.role, "create")
})

export const isAdmin = (member: Member): boolean => atLeast(member.role, "admin")
export const isGuest = (member: Member): boolean => member.role === null

export const canManageTeam = (member: Member, membership: TeamMembership | undefined): boolean =>
  isAdmin(member) || membership?.role === "owner"

export const requireRole = (member: Member, required: Role, action: string): Effect.Effect<void, Forbidden> =>
  atLeast(member.role, required)
    ? Effect.void
    : Effect.fail(new Forbidden({ action, required: `the ${required} role` }))

export const requireNotGuest = (member: Member, action: string): Effect.Effect<void, Forbidden> =>
  isGuest(member) ? Effect.fail(new Forbidden({ action, required: "a member role (guests may not)" })) : Effect.void
