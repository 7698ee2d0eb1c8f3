import type { Migration } from "../../shared/Migrations.js"

// Translation settings: a title and a list of GitBook's language codes.
export const migration: Migration = {
  id: 15,
  name: "translations",
  sql: `
CREATE TABLE translation_settings (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  title text NOT NULL,
  languages text[] NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX translation_settings_listing ON translation_settings (organization_id, created_at, id);
`
}
