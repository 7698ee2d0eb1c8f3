import { Schema } from "effect"

/** Roles from the least to the most capable: each includes what the previous ones may do. */
export const roles = ["read", "comment", "edit", "review", "create", "admin"] as const

export const Role = Schema.Literal(...roles)
export type Role = typeof Role.Type

/** A member's role; null for guests. */
export const MemberRole = Schema.NullOr(Role)
export type MemberRole = typeof MemberRole.Type

export const TeamRole = Schema.Literal("owner", "member")
export type TeamRole = typeof TeamRole.Type

const rank = (role: Role): number => roles.indexOf(role)

/** True when `role` includes everything `required` may do. Guests (null) include nothing. */
export const atLeast = (role: MemberRole, required: Role): boolean => role !== null && rank(role) >= rank(required)
