import type { Migration } from "../shared/Migrations.js"
import { migration as identityAndOrganizations } from "./migrations/0001_organizations.js"
import { migration as guestInvites } from "./migrations/0009_guest_invites.js"

/** Migration 1 also creates identity's tables (see identity/migrations.ts). */
export const organizationsMigrations: ReadonlyArray<Migration> = [identityAndOrganizations, guestInvites]
