import type { Migration } from "../../shared/Migrations.js"

// Titles and descriptions in other languages (GitBook's localizedTitle and localizedDescription), by language.
export const migration: Migration = {
  id: 27,
  name: "site_localized_titles",
  sql: `
ALTER TABLE site_sections ADD COLUMN localized_title jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN localized_description jsonb NOT NULL DEFAULT '{}';
ALTER TABLE site_section_groups ADD COLUMN localized_title jsonb NOT NULL DEFAULT '{}';
ALTER TABLE site_spaces ADD COLUMN localized_title jsonb NOT NULL DEFAULT '{}';
`
}
