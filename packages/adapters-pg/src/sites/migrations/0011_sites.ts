import type { Migration } from "../../shared/Migrations.js"

// Sites, their sections, section groups and site spaces, and their share links. Everything under a
// site goes with it (ON DELETE CASCADE). The children have no foreign keys among themselves, nor to
// spaces: a structural change writes them in any order, and a site space outlives its space's soft
// deletion. Paths are not unique here: the domain checks them under the site's lock.
export const migration: Migration = {
  id: 11,
  name: "sites",
  sql: `
CREATE TABLE sites (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  type text NOT NULL
    CHECK (type IN ('basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium')),
  title text NOT NULL,
  visibility text NOT NULL CHECK (visibility IN ('public', 'unlisted', 'share-link', 'visitor-auth')),
  published boolean NOT NULL,
  basename text,
  proxy text,
  adaptive_content boolean NOT NULL,
  default_site_space_id text COLLATE "C",
  default_section_id text COLLATE "C",
  publishing_auth_private_key text NOT NULL,
  publishing_auth_fallback_url text,
  publishing_auth_logout_url text,
  -- The adaptive schema is there when adaptive_schema_updated_at is.
  adaptive_schema jsonb,
  adaptive_schema_updated_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX sites_created_idx ON sites (organization_id, created_at, id);
CREATE UNIQUE INDEX sites_basename_key ON sites (organization_id, lower(basename)) WHERE basename IS NOT NULL;
CREATE UNIQUE INDEX sites_proxy_key ON sites (lower(proxy)) WHERE proxy IS NOT NULL;

CREATE TABLE site_section_groups (
  id text COLLATE "C" PRIMARY KEY,
  site_id text COLLATE "C" NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  title text NOT NULL,
  icon text,
  position text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX site_section_groups_site_idx ON site_section_groups (site_id);

CREATE TABLE site_sections (
  id text COLLATE "C" PRIMARY KEY,
  site_id text COLLATE "C" NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  title text NOT NULL,
  description text,
  icon text,
  path text NOT NULL,
  condition text,
  group_id text COLLATE "C",
  position text COLLATE "C" NOT NULL,
  default_site_space_id text COLLATE "C",
  created_at bigint NOT NULL
);
CREATE INDEX site_sections_site_idx ON site_sections (site_id);

CREATE TABLE site_spaces (
  id text COLLATE "C" PRIMARY KEY,
  site_id text COLLATE "C" NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  section_id text COLLATE "C",
  space_id text COLLATE "C" NOT NULL,
  path text NOT NULL,
  condition text,
  position text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX site_spaces_site_idx ON site_spaces (site_id);
CREATE INDEX site_spaces_space_idx ON site_spaces (space_id);

CREATE TABLE site_share_links (
  id text COLLATE "C" PRIMARY KEY,
  site_id text COLLATE "C" NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  name text NOT NULL,
  key text COLLATE "C" NOT NULL,
  active boolean NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX site_share_links_listing ON site_share_links (site_id, created_at, id);
`
}
