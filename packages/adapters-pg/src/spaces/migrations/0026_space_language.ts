import type { Migration } from "../../shared/Migrations.js"

// A space's content language (GitBook's Space.language; docs.yaml's `content.language`): NULL until set.
export const migration: Migration = {
  id: 26,
  name: "space_language",
  sql: `
ALTER TABLE spaces ADD COLUMN language text;
`
}
