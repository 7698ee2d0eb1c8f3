import { Effect } from "effect"
import type { Member } from "../organizations/Organization.js"
import { Forbidden } from "../shared/Errors.js"
import { atLeast, type Role, roles } from "../shared/Role.js"

/**
 * Content permissions (README, "Content permissions"). A member's level on a collection or a
 * space is the highest of its organization role and the default levels that apply to the item
 * (`defaultLevelsOf`). Admins administer everything; guests (role null) have no level.
 */
export const effectiveLevel = (member: Member, defaultLevels: ReadonlyArray<Role>): Role | null => {
  if (member.role === null) return null
  let level: Role = member.role
  for (const candidate of defaultLevels) if (roles.indexOf(candidate) > roles.indexOf(level)) level = candidate
  return level
}

/** What a member may do in a space (GitBook's Space `permissions`), from its level there. */
export interface SpacePermissions {
  readonly view: boolean
  readonly access: boolean
  readonly admin: boolean
  readonly viewInviteLinks: boolean
  readonly edit: boolean
  readonly triggerGitSync: boolean
  readonly comment: boolean
  readonly merge: boolean
  readonly review: boolean
  readonly installIntegration: boolean
}

export const spacePermissions = (level: Role | null): SpacePermissions => ({
  view: atLeast(level, "read"),
  access: atLeast(level, "read"),
  admin: atLeast(level, "admin"),
  // Invites and integrations are managed by admins; Git Sync imports and exports need `create`.
  viewInviteLinks: atLeast(level, "admin"),
  edit: atLeast(level, "edit"),
  triggerGitSync: atLeast(level, "create"),
  comment: atLeast(level, "comment"),
  merge: atLeast(level, "review"),
  review: atLeast(level, "review"),
  installIntegration: atLeast(level, "admin")
})

/** What a member may do in a collection (GitBook's Collection `permissions`, and `edit`), from its level there. */
export interface CollectionPermissions {
  readonly view: boolean
  readonly admin: boolean
  readonly viewInviteLinks: boolean
  readonly create: boolean
  readonly edit: boolean
}

export const collectionPermissions = (level: Role | null): CollectionPermissions => ({
  view: atLeast(level, "read"),
  admin: atLeast(level, "admin"),
  viewInviteLinks: atLeast(level, "admin"),
  create: atLeast(level, "create"),
  edit: atLeast(level, "edit")
})

/** Refuses an action below `required`; without even `read`, the item is hidden (NotFound is the caller's). */
export const requireLevel = (level: Role | null, required: Role, action: string): Effect.Effect<void, Forbidden> =>
  atLeast(level, required) ? Effect.void : Effect.fail(new Forbidden({ action, required: `the ${required} level` }))
