import type { Migration } from "../../shared/Migrations.js"

// GitBook's default levels: a role, "inherit" (the collections above only) or NULL (none); and a
// space's icon, an image URL shown instead of its emoji.
export const migration: Migration = {
  id: 7,
  name: "default levels inherit or none, space icons",
  sql: `
ALTER TABLE collections DROP CONSTRAINT collections_default_level_check;
ALTER TABLE collections ALTER COLUMN default_level DROP NOT NULL;
ALTER TABLE collections ADD CONSTRAINT collections_default_level_check
  CHECK (default_level IN ('read', 'comment', 'edit', 'review', 'create', 'admin', 'inherit'));

ALTER TABLE spaces DROP CONSTRAINT spaces_default_level_check;
ALTER TABLE spaces ALTER COLUMN default_level DROP NOT NULL;
ALTER TABLE spaces ADD CONSTRAINT spaces_default_level_check
  CHECK (default_level IN ('read', 'comment', 'edit', 'review', 'create', 'admin', 'inherit'));
ALTER TABLE spaces ADD COLUMN icon text;
`
}
