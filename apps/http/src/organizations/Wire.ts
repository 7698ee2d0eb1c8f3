import {
  Invite,
  Member,
  Organization,
  OrganizationPermissions,
  Team,
  TeamMemberPermissions,
  TeamMembership,
  TeamPermissions
} from "@octavo/domain"
import { Schema } from "effect"
import { UserObject } from "../identity/Wire.js"

// The wire shapes of organizations, members, teams and invites, fields from the domain's where they match.

export const OrganizationObject = Schema.Struct({
  object: Schema.Literal("organization"),
  ...Organization.pick("id", "title").fields,
  createdAt: Schema.Date,
  ...Organization.pick("emailDomains", "hostname").fields,
  type: Schema.Literal("business"),
  ...Organization.pick("defaultRole", "defaultContent", "sso", "ai", "inviteLinks").fields,
  plan: Schema.String,
  /** Octavo has no merge rules: a change request merges without review, which GitBook calls `none`. */
  mergeRules: Schema.Struct({ type: Schema.Literal("none") }),
  urls: Schema.Struct({ location: Schema.String, app: Schema.String, logo: Schema.optional(Schema.String) }),
  /** No trial applies, and none was ever used. */
  trial: Schema.Struct({ status: Schema.Literal("notapplicable"), count: Schema.Number }),
  permissions: OrganizationPermissions
}).annotations({ identifier: "Organization" })

export const MemberObject = Schema.Struct({
  object: Schema.Literal("member"),
  id: Member.fields.userId,
  ...Member.pick("role").fields,
  user: UserObject,
  ...Member.pick("disabled").fields,
  joinedAt: Schema.Date,
  lastSeenAt: Schema.optional(Schema.Date),
  ...Member.pick("sso").fields,
  spaces: Schema.Number,
  teams: Schema.Number,
  /** Octavo has no sites: a member has none. */
  sites: Schema.Number
}).annotations({ identifier: "Member" })

export const TeamObject = Schema.Struct({
  object: Schema.Literal("team"),
  ...Team.pick("id", "title").fields,
  members: Schema.Number,
  spaces: Schema.Number,
  createdAt: Schema.Date,
  permissions: TeamPermissions
}).annotations({ identifier: "Team" })

export const TeamMembershipObject = TeamMembership.pick("role")

/** A member of a team: the organization member, its place in the team, and what the caller may do. */
export const TeamMemberObject = Schema.Struct({
  organization: MemberObject,
  team: TeamMembershipObject,
  permissions: TeamMemberPermissions
}).annotations({ identifier: "TeamMember" })

export const InviteObject = Schema.Struct({
  object: Schema.Literal("invite"),
  ...Invite.pick("id", "role").fields,
  /** The caller already has everything the invite gives. */
  redundant: Schema.Boolean
}).annotations({ identifier: "Invite" })

/** What inviting by email did, in GitBook's shape: `invited` counts the addresses that have no account. */
export const InvitedByEmailObject = Schema.Struct({
  users: Schema.Array(Schema.String),
  invited: Schema.Number,
  /** Addresses not added as SSO members because they belong to another organization: never, in Octavo. */
  failedSSOEmails: Schema.Array(Schema.String)
})
