import type { Member } from "../organizations/Organization.js"
import { isAdmin } from "../organizations/Policy.js"
import type {
  InstallationConfiguration,
  InstallationStatus,
  Integration,
  IntegrationPermissions
} from "./Integration.js"

/**
 * Who may see and do what with an integration (conventions-2.md §7), from the caller's member records:
 * - `public` is listed and read by everyone; `unlisted` is read by name by everyone, and listed for the owner's members;
 *   `private` exists only for the owner's members (guests included);
 * - the owner's admins publish new versions, unpublish, and see every installation;
 * - an organization's admins install an integration there when it is visible to that organization, and manage that installation.
 */
export const canSee = (integration: Integration, memberships: ReadonlyArray<Member>): boolean =>
  integration.visibility !== "private" || memberships.some((m) => m.organizationId === integration.ownerId)

/** Whether the organization may install the integration: a private one only its owner. */
export const installableIn = (integration: Integration, organizationId: string): boolean =>
  integration.visibility !== "private" || integration.ownerId === organizationId

export const administersOwner = (integration: Integration, memberships: ReadonlyArray<Member>): boolean =>
  memberships.some((m) => m.organizationId === integration.ownerId && isAdmin(m))

export const integrationPermissions = (integration: Integration, memberships: ReadonlyArray<Member>): IntegrationPermissions => ({
  admin: administersOwner(integration, memberships),
  install: memberships.some((m) => isAdmin(m) && installableIn(integration, m.organizationId))
})

/** `pending` while a property that the account configuration requires has no value, else `active`; never `paused`. */
export const installationStatus = (integration: Integration, configuration: InstallationConfiguration): InstallationStatus =>
  (integration.configurations?.account?.required ?? []).some((name) =>
      !Object.hasOwn(configuration, name) || configuration[name] === null || configuration[name] === undefined
    )
    ? "pending"
    : "active"
