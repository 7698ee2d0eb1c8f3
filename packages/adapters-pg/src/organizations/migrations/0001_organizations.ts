import type { Migration } from "../../shared/Migrations.js"

// Ids compare with COLLATE "C" so that keyset order is JavaScript's order of strings.
// Every *_at column holds epoch milliseconds, the domain's keyset values, so pages compare exactly.
export const migration: Migration = {
  id: 1,
  name: "identity and organizations",
  sql: `
CREATE TABLE users (
  id text COLLATE "C" PRIMARY KEY,
  display_name text NOT NULL,
  email text NOT NULL CONSTRAINT users_email_key UNIQUE,
  photo_url text,
  is_instance_admin boolean NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE api_tokens (
  id text COLLATE "C" PRIMARY KEY,
  user_id text COLLATE "C" NOT NULL REFERENCES users (id),
  label text NOT NULL,
  hash text NOT NULL,
  created_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX api_tokens_hash_idx ON api_tokens (hash);
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id);

CREATE TABLE organizations (
  id text COLLATE "C" PRIMARY KEY,
  title text NOT NULL,
  created_at bigint NOT NULL,
  email_domains text[] NOT NULL,
  -- Unique among organizations that have one: NULLs are distinct.
  hostname text CONSTRAINT organizations_hostname_key UNIQUE,
  default_role text CHECK (default_role IN ('read', 'comment', 'edit', 'review', 'create', 'admin')),
  default_content jsonb,
  logo text,
  sso boolean NOT NULL,
  ai boolean NOT NULL,
  invite_links boolean NOT NULL
);
CREATE INDEX organizations_email_domains_idx ON organizations USING gin (email_domains);

CREATE TABLE members (
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  user_id text COLLATE "C" NOT NULL REFERENCES users (id),
  role text CHECK (role IN ('read', 'comment', 'edit', 'review', 'create', 'admin')),
  joined_at bigint NOT NULL,
  last_seen_at bigint,
  sso boolean NOT NULL,
  disabled boolean NOT NULL,
  CONSTRAINT members_pkey PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX members_user_idx ON members (user_id);
CREATE INDEX members_joined_idx ON members (organization_id, joined_at, user_id);
CREATE INDEX members_last_seen_idx ON members (organization_id, last_seen_at, user_id) WHERE last_seen_at IS NOT NULL;

CREATE TABLE teams (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  title text NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX teams_organization_idx ON teams (organization_id, created_at, id);

CREATE TABLE team_memberships (
  team_id text COLLATE "C" NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'member')),
  added_at bigint NOT NULL,
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_memberships_member_idx ON team_memberships (organization_id, user_id);
CREATE INDEX team_memberships_added_idx ON team_memberships (team_id, added_at, user_id);

CREATE TABLE invites (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  role text NOT NULL CHECK (role IN ('read', 'comment', 'edit', 'review', 'create', 'admin')),
  created_at bigint NOT NULL
);
CREATE INDEX invites_organization_idx ON invites (organization_id, created_at, id);
`
}
