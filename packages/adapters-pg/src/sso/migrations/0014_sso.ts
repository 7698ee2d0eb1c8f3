import type { Migration } from "../../shared/Migrations.js"

// SAML providers. The default team has no foreign key: a deleted team is no default team any more,
// which the domain decides when it reads the provider, alike on every store.
export const migration: Migration = {
  id: 14,
  name: "sso",
  sql: `
CREATE TABLE saml_providers (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  label text NOT NULL,
  entity_id text,
  sso_url text,
  certificate text,
  default_team_id text COLLATE "C",
  default_role text CHECK (default_role IN ('read', 'comment', 'edit', 'review', 'create', 'admin')),
  status text NOT NULL CHECK (status IN ('pending', 'active')),
  created_at bigint NOT NULL
);
CREATE INDEX saml_providers_listing ON saml_providers (organization_id, created_at, id);
`
}
