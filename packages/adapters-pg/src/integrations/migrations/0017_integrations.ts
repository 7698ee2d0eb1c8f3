import type { Migration } from "../../shared/Migrations.js"

// Integrations, their versions and their installations (conventions-2.md §7). Names are unique
// ignoring case; versions and installations go with their integration (ON DELETE CASCADE). Shapes
// are json, not jsonb, so that their keys keep the order they were published in.
export const migration: Migration = {
  id: 17,
  name: "integrations",
  sql: `
CREATE TABLE integrations (
  name text COLLATE "C" PRIMARY KEY,
  version integer NOT NULL,
  owner_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  title text NOT NULL,
  description text NOT NULL,
  summary text,
  icon json,
  preview_images json NOT NULL,
  visibility text NOT NULL CHECK (visibility IN ('public', 'private', 'unlisted')),
  target text NOT NULL CHECK (target IN ('all', 'site', 'space', 'organization')),
  scopes json NOT NULL,
  categories json NOT NULL,
  blocks json NOT NULL,
  content_sources json NOT NULL,
  external_links json NOT NULL,
  configurations json,
  content_security_policy json,
  block_domains json NOT NULL,
  script_key text NOT NULL,
  sealed_secrets text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE UNIQUE INDEX integrations_name_key ON integrations (lower(name));
CREATE INDEX integrations_owner_idx ON integrations (owner_id);

CREATE TABLE integration_versions (
  name text COLLATE "C" NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
  version integer NOT NULL,
  script_key text NOT NULL,
  published_at bigint NOT NULL,
  PRIMARY KEY (name, version)
);

CREATE TABLE integration_installations (
  id text COLLATE "C" PRIMARY KEY,
  integration_name text COLLATE "C" NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  external_ids json NOT NULL,
  configuration json NOT NULL,
  space_selection text NOT NULL CHECK (space_selection IN ('all', 'selected')),
  site_selection text NOT NULL CHECK (site_selection IN ('all', 'selected')),
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  CONSTRAINT integration_installations_organization_key UNIQUE (integration_name, organization_id)
);
CREATE INDEX integration_installations_created_idx ON integration_installations (integration_name, created_at, id);
`
}
