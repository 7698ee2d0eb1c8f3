import { Invite, Member, Organization, Team, TeamMembership } from "@octavo/domain"
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
  urls: Schema.Struct({ location: Schema.String, app: Schema.String, logo: Schema.optional(Schema.String) }),
  trial: Schema.Struct({ status: Schema.String }),
  permissions: Schema.Struct({ admin: Schema.Boolean, createContent: Schema.Boolean })
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
  teams: Schema.Number
}).annotations({ identifier: "Member" })

export const TeamObject = Schema.Struct({
  object: Schema.Literal("team"),
  ...Team.pick("id", "title").fields,
  members: Schema.Number,
  spaces: Schema.Number,
  createdAt: Schema.Date
}).annotations({ identifier: "Team" })

export const TeamMembershipObject = TeamMembership.pick("role")

export const InviteObject = Schema.Struct({
  object: Schema.Literal("invite"),
  ...Invite.pick("id", "role").fields
}).annotations({ identifier: "Invite" })
