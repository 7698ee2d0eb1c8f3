import type { Migration } from "../../shared/Migrations.js"

// GitBook's link invites may make guests: an invite's role, like a member's, is NULL for a guest.
export const migration: Migration = {
  id: 9,
  name: "guest link invites",
  sql: `
ALTER TABLE invites ALTER COLUMN role DROP NOT NULL;
`
}
