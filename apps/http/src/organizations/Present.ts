import type {
  InviteByEmailResult,
  InviteView,
  MemberView,
  OrganizationView,
  TeamMembership,
  TeamMemberView,
  TeamView
} from "@octavo/domain"
import { presentUser } from "../identity/Present.js"
import type { InvitedByEmailObject, InviteObject, MemberObject, OrganizationObject, TeamMemberObject, TeamObject } from "./Wire.js"

export const organizationLocation = (base: string, id: string) => `${base}/v1/orgs/${id}`

export const presentOrganization =
  (base: string) => ({ organization: o, permissions }: OrganizationView): typeof OrganizationObject.Type => ({
    object: "organization",
    id: o.id,
    title: o.title,
    createdAt: o.createdAt,
    emailDomains: o.emailDomains,
    ...(o.hostname !== undefined ? { hostname: o.hostname } : {}),
    type: "business",
    defaultRole: o.defaultRole,
    ...(o.defaultContent !== undefined ? { defaultContent: o.defaultContent } : {}),
    sso: o.sso,
    ai: o.ai,
    inviteLinks: o.inviteLinks,
    plan: "free_2024",
    mergeRules: { type: "none" },
    urls: {
      location: organizationLocation(base, o.id),
      app: `${base}/o/${o.id}`,
      ...(o.logo !== undefined ? { logo: o.logo } : {})
    },
    trial: { status: "notapplicable", count: 0 },
    permissions
  })

export const presentMember = (base: string) => ({ member, teams, user }: MemberView): typeof MemberObject.Type => ({
  object: "member",
  id: member.userId,
  role: member.role,
  user: presentUser(base)(user),
  disabled: member.disabled,
  joinedAt: member.joinedAt,
  ...(member.lastSeenAt !== undefined ? { lastSeenAt: member.lastSeenAt } : {}),
  sso: member.sso,
  // Spaces arrive with the spaces slice; until then a member has none.
  spaces: 0,
  teams,
  sites: 0
})

export const presentTeam = ({ members, permissions, team }: TeamView): typeof TeamObject.Type => ({
  object: "team",
  id: team.id,
  title: team.title,
  members,
  spaces: 0,
  createdAt: team.createdAt,
  permissions
})

export const teamLocation = (base: string, team: TeamView) =>
  `${organizationLocation(base, team.team.organizationId)}/teams/${team.team.id}`

const presentMembership = (membership: TeamMembership) => ({ role: membership.role })

/** A team a member belongs to, with the member's role in it. */
export const presentMemberTeam = ({ membership, team }: { readonly team: TeamView; readonly membership: TeamMembership }) => ({
  team: presentTeam(team),
  member: presentMembership(membership)
})

/** A member of a team: the organization member, and its role in the team. */
export const presentTeamMember = (base: string) => {
  const member = presentMember(base)
  return (row: TeamMemberView): typeof TeamMemberObject.Type => ({
    organization: member(row.member),
    team: presentMembership(row.membership),
    permissions: row.permissions
  })
}

export const presentInvite = ({ invite, redundant }: InviteView): typeof InviteObject.Type => ({
  object: "invite",
  id: invite.id,
  role: invite.role,
  redundant
})

export const inviteLocation = (base: string, { invite }: InviteView) =>
  `${organizationLocation(base, invite.organizationId)}/link-invites/${invite.id}`

export const presentInvitedByEmail = (result: InviteByEmailResult): typeof InvitedByEmailObject.Type => ({
  users: result.users,
  invited: result.invited.length,
  failedSSOEmails: []
})

/** What `ping` saw, as the claims a visitor token would carry. */
export const presentVisitorClaims = (
  seen: { readonly organizationId: string; readonly userId: string; readonly role: string | null; readonly seenAt: Date }
) => ({
  serviceVisitorClaims: JSON.stringify({
    organization: seen.organizationId,
    user: seen.userId,
    role: seen.role,
    seenAt: seen.seenAt.toISOString()
  })
})
