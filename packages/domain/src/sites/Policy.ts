import { Schema } from "effect"
import type { Member } from "../organizations/Organization.js"
import { requireRole } from "../organizations/Policy.js"
import { atLeast, type Role } from "../shared/Role.js"

/**
 * Who may do what with a site (conventions-2.md §0, "Site access"): sites follow the organization
 * role, and guests do not see them.
 * - `read`: every read (sites, structure, the adaptive schema, the published view) but share links and publishing auth;
 * - `edit`: create, change and remove redirects (GitBook's site editors);
 * - `create`: create a site; add, change, move and remove site spaces, sections and groups; publish and unpublish;
 * - `admin`: change or delete a site, its share links, its adaptive schema and its publishing auth.
 */
export const siteRoles = {
  read: "read",
  redirects: "edit",
  structure: "create",
  admin: "admin"
} as const satisfies Record<string, Role>

export const SitePermissions = Schema.Struct({
  view: Schema.Boolean,
  access: Schema.Boolean,
  edit: Schema.Boolean,
  create: Schema.Boolean,
  admin: Schema.Boolean,
  installIntegration: Schema.Boolean,
  viewAdaptiveSchema: Schema.Boolean,
  editAdaptiveSchema: Schema.Boolean
})
export type SitePermissions = typeof SitePermissions.Type

/** GitBook's site permissions, from the rules above. Octavo has no integrations to install. */
export const sitePermissions = (member: Member): SitePermissions => ({
  view: atLeast(member.role, siteRoles.read),
  access: atLeast(member.role, siteRoles.read),
  edit: atLeast(member.role, "edit"),
  create: atLeast(member.role, siteRoles.structure),
  admin: atLeast(member.role, siteRoles.admin),
  installIntegration: false,
  viewAdaptiveSchema: atLeast(member.role, siteRoles.read),
  editAdaptiveSchema: atLeast(member.role, siteRoles.admin)
})

export const requireSiteRole = (member: Member, need: keyof typeof siteRoles, action: string) =>
  requireRole(member, siteRoles[need], action)
