import { Effect, Schema } from "effect"
import { Forbidden } from "../shared/Errors.js"
import { atLeast, type Role } from "../shared/Role.js"
import type { Invite, Member, TeamMembership } from "./Organization.js"

/**
 * Who may do what in an organization (the README's permission table is this file):
 * - any member, guests included, reads the organization, pings, and reads its own member record;
 * - members with a role (not guests) read members, teams and team members;
 * - admins change the organization, members' roles, SSO flags, teams and invites, and remove members;
 * - a team's owners manage that team's members and title;
 * - any member may leave (remove itself), unless it is the last admin.
 */

/**
 * What the caller may do in an organization, as GitBook names it. Billing is a feature Octavo does
 * not have: no one views it. The OpenAPI and integration flags restate those contexts' policies
 * (conventions-2.md §5 and §7), which come after this one.
 */
export const OrganizationPermissions = Schema.Struct({
  /** Reads the organization: any member, guests included. */
  view: Schema.Boolean,
  /** Opens the organization itself, not only content shared with it: members with a role. */
  access: Schema.Boolean,
  admin: Schema.Boolean,
  /** Owns at least one of the organization's teams. */
  ownTeam: Schema.Boolean,
  createContent: Schema.Boolean,
  createOpenAPISpec: Schema.Boolean,
  viewBilling: Schema.Boolean,
  listMembers: Schema.Boolean,
  listTeams: Schema.Boolean,
  listIntegrations: Schema.Boolean,
  listInstallations: Schema.Boolean,
  installIntegration: Schema.Boolean
})
export type OrganizationPermissions = typeof OrganizationPermissions.Type

/** A member's permissions; `ownsTeam` says whether it is the owner of one of the organization's teams. */
export const organizationPermissions = (member: Member, ownsTeam: boolean): OrganizationPermissions => ({
  view: true,
  access: !isGuest(member),
  admin: isAdmin(member),
  ownTeam: ownsTeam,
  createContent: atLeast(member.role, "create"),
  createOpenAPISpec: atLeast(member.role, "create"),
  viewBilling: false,
  listMembers: !isGuest(member),
  listTeams: !isGuest(member),
  // Integrations visible to the organization; installations in it are its admins' to see and make.
  listIntegrations: !isGuest(member),
  listInstallations: isAdmin(member),
  installIntegration: isAdmin(member)
})

/** A non-member (seeing an organization it could join) may do nothing in it. */
export const noOrganizationPermissions: OrganizationPermissions = {
  view: false,
  access: false,
  admin: false,
  ownTeam: false,
  createContent: false,
  createOpenAPISpec: false,
  viewBilling: false,
  listMembers: false,
  listTeams: false,
  listIntegrations: false,
  listInstallations: false,
  installIntegration: false
}

/** What the caller may do with a team: manage it (admins and its owners), and read it with its members. */
export const TeamPermissions = Schema.Struct({ admin: Schema.Boolean, view: Schema.Boolean })
export type TeamPermissions = typeof TeamPermissions.Type

/** Whether the caller may read a member of a team: whoever may read the team. */
export const TeamMemberPermissions = Schema.Struct({ view: Schema.Boolean })
export type TeamMemberPermissions = typeof TeamMemberPermissions.Type

/** `membership` is the caller's own place in the team, if it has one. */
export const teamPermissions = (member: Member, membership: TeamMembership | undefined): TeamPermissions => ({
  admin: canManageTeam(member, membership),
  view: !isGuest(member)
})

export const teamMemberPermissions = (member: Member): TeamMemberPermissions => ({ view: !isGuest(member) })

/** An invite is redundant to a caller who already has everything it would give: a member with at least its role. */
export const inviteIsRedundant = (member: Member | undefined, invite: Invite): boolean =>
  member !== undefined && (invite.role === null || atLeast(member.role, invite.role))

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
