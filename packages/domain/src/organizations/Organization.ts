import { Schema } from "effect"
import { InviteId, OrganizationId, SiteId, TeamId, UserId } from "../shared/Ids.js"
import {
  boundedArray,
  boundedString,
  Email,
  EmailDomain,
  HttpUrl,
  patternString,
  StoredString,
  storedKeysRecord
} from "../shared/Limits.js"
import { MemberRole, TeamRole } from "../shared/Role.js"

// Organizations, members, teams: limits from the specification's "Limits" table.
export const OrganizationTitle = boundedString({ min: 2, max: 255 })
export const OrganizationHostname = boundedString({ min: 3, max: 32 }).pipe(
  Schema.compose(patternString(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, "lower-case letters, digits and inner hyphens"))
)
export const EmailDomains = boundedArray(EmailDomain, { max: 100 })
export const TeamTitle = boundedString({ min: 1, max: 64 })

/** What a visitor of the organization's hostname is shown: one of its sites. */
export const DefaultContent = Schema.Struct({
  type: Schema.Literal("site"),
  site: SiteId
})

export const Organization = Schema.Struct({
  id: OrganizationId,
  title: OrganizationTitle,
  createdAt: Schema.DateFromSelf,
  /** Lower-cased. */
  emailDomains: Schema.Array(Schema.String),
  hostname: Schema.optional(Schema.String),
  defaultRole: MemberRole,
  defaultContent: Schema.optional(DefaultContent),
  logo: Schema.optional(Schema.String),
  sso: Schema.Boolean,
  ai: Schema.Boolean,
  inviteLinks: Schema.Boolean
})
export type Organization = typeof Organization.Type

export const Member = Schema.Struct({
  organizationId: OrganizationId,
  userId: UserId,
  role: MemberRole,
  joinedAt: Schema.DateFromSelf,
  /** Set by `ping`; members who never pinged are not "active". */
  lastSeenAt: Schema.optional(Schema.DateFromSelf),
  sso: Schema.Boolean,
  disabled: Schema.Boolean
})
export type Member = typeof Member.Type

export const Team = Schema.Struct({
  id: TeamId,
  organizationId: OrganizationId,
  title: TeamTitle,
  createdAt: Schema.DateFromSelf
})
export type Team = typeof Team.Type

export const TeamMembership = Schema.Struct({
  teamId: TeamId,
  organizationId: OrganizationId,
  userId: UserId,
  role: TeamRole,
  addedAt: Schema.DateFromSelf
})
export type TeamMembership = typeof TeamMembership.Type

export const Invite = Schema.Struct({
  id: InviteId,
  organizationId: OrganizationId,
  /** The role it gives; null makes guests. */
  role: MemberRole,
  createdAt: Schema.DateFromSelf
})
export type Invite = typeof Invite.Type

// Inputs of the use cases; the HTTP contracts decode into these.
export const CreateOrganizationInput = Schema.Struct({
  title: OrganizationTitle,
  emailDomains: Schema.optional(EmailDomains)
})
export type CreateOrganizationInput = typeof CreateOrganizationInput.Type

export const UpdateOrganizationInput = Schema.Struct({
  title: Schema.optional(OrganizationTitle),
  emailDomains: Schema.optional(EmailDomains),
  hostname: Schema.optional(Schema.NullOr(OrganizationHostname)),
  defaultRole: Schema.optional(MemberRole),
  defaultContent: Schema.optional(Schema.NullOr(DefaultContent)),
  logo: Schema.optional(Schema.NullOr(HttpUrl)),
  sso: Schema.optional(Schema.Boolean),
  ai: Schema.optional(Schema.Boolean),
  inviteLinks: Schema.optional(Schema.Boolean),
  /** GitBook's merge rules: Octavo has none (change requests merge without review), so only `none` is accepted. */
  mergeRules: Schema.optional(Schema.Struct({
    type: Schema.Literal("none").annotations({
      message: () => "must be \"none\": Octavo has no merge rules, change requests merge without review"
    })
  }))
})
export type UpdateOrganizationInput = typeof UpdateOrganizationInput.Type

/** By the time members joined or were last seen, or by display name (compared as JavaScript's `<` compares strings). */
export const MemberSort = Schema.Literal("joinedAt", "lastSeenAt", "name")
export type MemberSort = typeof MemberSort.Type

/** A user named by a team's members: their id, or the email address of their account. */
export const MemberRef = StoredString.pipe(
  Schema.filter((ref) => (ref.includes("@") ? Schema.is(Email)(ref) : Schema.is(UserId)(ref)) || "must be a user id or an email address")
)

export const CreateTeamInput = Schema.Struct({
  title: TeamTitle,
  members: Schema.optional(boundedArray(MemberRef, { max: 1000 }))
})
export type CreateTeamInput = typeof CreateTeamInput.Type

export const TeamMembersUpdate = Schema.Struct({
  add: Schema.optional(boundedArray(MemberRef, { max: 1000 })),
  remove: Schema.optional(boundedArray(MemberRef, { max: 1000 })),
  memberships: Schema.optional(storedKeysRecord(Schema.Struct({ role: TeamRole })))
})
export type TeamMembersUpdate = typeof TeamMembersUpdate.Type

/** An address, or an address with its own role (null for a guest). */
export const EmailInvite = Schema.Union(
  StoredString,
  Schema.Struct({ email: StoredString, role: MemberRole })
)
export const InviteByEmailInput = Schema.Struct({
  emails: boundedArray(EmailInvite, { min: 1, max: 100 }),
  /** The role of addresses without their own; null for guests. */
  role: Schema.optional(MemberRole),
  /** Adds the users as SSO members. */
  sso: Schema.optional(Schema.Boolean)
})
export type InviteByEmailInput = typeof InviteByEmailInput.Type
