import { Effect } from "effect"
import type { Member } from "../organizations/Organization.js"
import { Forbidden } from "../shared/Errors.js"
import { atLeast, type Role, roles } from "../shared/Role.js"

/**
 * Content permissions (README, "Content permissions"). A member's level on a collection or a
 * space is the highest of its organization role and the `defaultLevel` of that item and of
 * every collection above it. Admins administer everything; guests (role null) have no level.
 */
export const effectiveLevel = (member: Member, defaultLevels: ReadonlyArray<Role>): Role | null => {
  if (member.role === null) return null
  let level: Role = member.role
  for (const candidate of defaultLevels) if (roles.indexOf(candidate) > roles.indexOf(level)) level = candidate
  return level
}

export interface SpacePermissions {
  readonly access: boolean
  readonly comment: boolean
  readonly edit: boolean
  readonly review: boolean
  readonly merge: boolean
  readonly admin: boolean
}

export const spacePermissions = (level: Role | null): SpacePermissions => ({
  access: atLeast(level, "read"),
  comment: atLeast(level, "comment"),
  edit: atLeast(level, "edit"),
  review: atLeast(level, "review"),
  merge: atLeast(level, "review"),
  admin: atLeast(level, "admin")
})

export interface CollectionPermissions {
  readonly view: boolean
  readonly edit: boolean
  readonly create: boolean
  readonly admin: boolean
}

export const collectionPermissions = (level: Role | null): CollectionPermissions => ({
  view: atLeast(level, "read"),
  edit: atLeast(level, "edit"),
  create: atLeast(level, "create"),
  admin: atLeast(level, "admin")
})

/** Refuses an action below `required`; without even `read`, the item is hidden (NotFound is the caller's). */
export const requireLevel = (level: Role | null, required: Role, action: string): Effect.Effect<void, Forbidden> =>
  atLeast(level, required) ? Effect.void : Effect.fail(new Forbidden({ action, required: `the ${required} level` }))
