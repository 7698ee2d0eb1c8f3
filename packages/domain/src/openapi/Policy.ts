import type { Member } from "../organizations/Organization.js"
import { requireRole } from "../organizations/Policy.js"
import { atLeast, type Role } from "../shared/Role.js"
import type { SpecPermissions } from "./OpenAPISpec.js"

/**
 * Who may do what with OpenAPI specs (conventions-2.md §5, "Access"): members with `read` read specs
 * and their versions; `create` adds, replaces and deletes them. Non-members are told nothing exists.
 */
export const specRoles = { read: "read", write: "create" } as const satisfies Record<string, Role>

export const specPermissions = (member: Member): SpecPermissions => ({
  view: atLeast(member.role, specRoles.read),
  edit: atLeast(member.role, specRoles.write)
})

export const requireSpecRole = (member: Member, need: keyof typeof specRoles, action: string) =>
  requireRole(member, specRoles[need], action)
