import { CustomFieldType, EditMode, MemberRole, Role, TeamRole, Visibility } from "@octavo/domain"
import { Schema } from "effect"

// The wire shapes of the objects, as the specification names their fields.

export const UserObject = Schema.Struct({
  object: Schema.Literal("user"),
  id: Schema.String,
  displayName: Schema.String,
  email: Schema.String,
  photoURL: Schema.optional(Schema.String),
  urls: Schema.Struct({ location: Schema.String })
}).annotations({ identifier: "User" })

export const ApiTokenObject = Schema.Struct({
  object: Schema.Literal("api-token"),
  id: Schema.String,
  label: Schema.String,
  token: Schema.String,
  createdAt: Schema.Date
}).annotations({ identifier: "ApiToken" })

export const OrganizationObject = Schema.Struct({
  object: Schema.Literal("organization"),
  id: Schema.String,
  title: Schema.String,
  createdAt: Schema.Date,
  emailDomains: Schema.Array(Schema.String),
  hostname: Schema.optional(Schema.String),
  type: Schema.Literal("business"),
  defaultRole: MemberRole,
  defaultContent: Schema.optional(Schema.Struct({ type: Schema.Literal("site"), site: Schema.String })),
  sso: Schema.Boolean,
  ai: Schema.Boolean,
  inviteLinks: Schema.Boolean,
  plan: Schema.String,
  urls: Schema.Struct({ location: Schema.String, app: Schema.String, logo: Schema.optional(Schema.String) }),
  trial: Schema.Struct({ status: Schema.String }),
  permissions: Schema.Struct({ admin: Schema.Boolean, createContent: Schema.Boolean })
}).annotations({ identifier: "Organization" })

export const MemberObject = Schema.Struct({
  object: Schema.Literal("member"),
  id: Schema.String,
  role: MemberRole,
  user: UserObject,
  disabled: Schema.Boolean,
  joinedAt: Schema.Date,
  lastSeenAt: Schema.optional(Schema.Date),
  sso: Schema.Boolean,
  spaces: Schema.Number,
  teams: Schema.Number
}).annotations({ identifier: "Member" })

export const TeamObject = Schema.Struct({
  object: Schema.Literal("team"),
  id: Schema.String,
  title: Schema.String,
  members: Schema.Number,
  spaces: Schema.Number,
  createdAt: Schema.Date
}).annotations({ identifier: "Team" })

export const TeamMembershipObject = Schema.Struct({ role: TeamRole })

export const InviteObject = Schema.Struct({
  object: Schema.Literal("invite"),
  id: Schema.String,
  role: Role
}).annotations({ identifier: "Invite" })

export const CollectionObject = Schema.Struct({
  object: Schema.Literal("collection"),
  id: Schema.String,
  title: Schema.String,
  description: Schema.optional(Schema.String),
  organization: Schema.String,
  parent: Schema.optional(Schema.String),
  defaultLevel: Role,
  urls: Schema.Struct({ location: Schema.String, app: Schema.String }),
  permissions: Schema.Struct({ view: Schema.Boolean, edit: Schema.Boolean, create: Schema.Boolean, admin: Schema.Boolean })
}).annotations({ identifier: "Collection" })

export const SpaceObject = Schema.Struct({
  object: Schema.Literal("space"),
  id: Schema.String,
  title: Schema.String,
  emoji: Schema.String,
  visibility: Visibility,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  deletedAt: Schema.optional(Schema.Date),
  editMode: EditMode,
  urls: Schema.Struct({ location: Schema.String, app: Schema.String }),
  organization: Schema.String,
  parent: Schema.optional(Schema.String),
  revision: Schema.String,
  defaultLevel: Role,
  comments: Schema.Number,
  changeRequests: Schema.Number,
  changeRequestsOpen: Schema.Number,
  changeRequestsDraft: Schema.Number,
  permissions: Schema.Struct({
    access: Schema.Boolean,
    admin: Schema.Boolean,
    edit: Schema.Boolean,
    comment: Schema.Boolean,
    merge: Schema.Boolean,
    review: Schema.Boolean
  })
}).annotations({ identifier: "Space" })

export const CustomFieldObject = Schema.Struct({
  object: Schema.Literal("custom-field"),
  id: Schema.String,
  name: Schema.String,
  type: CustomFieldType,
  title: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  placeholder: Schema.optional(Schema.String),
  options: Schema.optional(Schema.Array(Schema.String)),
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  urls: Schema.Struct({ location: Schema.String })
}).annotations({ identifier: "CustomField" })
