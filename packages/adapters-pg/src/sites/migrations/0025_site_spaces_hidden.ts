import type { Migration } from "../../shared/Migrations.js"

// A site space may be hidden from the site's navigation (GitBook's `hidden`; docs.yaml's `hidden: true`).
export const migration: Migration = {
  id: 25,
  name: "site_spaces_hidden",
  sql: `
ALTER TABLE site_spaces ADD COLUMN hidden boolean NOT NULL DEFAULT false;
`
}
