import type { Migration } from "../../shared/Migrations.js"

// Site-level Git Sync: one state document per site (its docs.yaml as last read or written, its nodes' ids, its
// last operation).
export const migration: Migration = {
  id: 24,
  name: "gitsync_sites",
  sql: `
CREATE TABLE gitsync_site_states (
  site_id text COLLATE "C" PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
  running boolean NOT NULL,
  state jsonb NOT NULL
);
CREATE INDEX gitsync_site_states_running ON gitsync_site_states (site_id) WHERE running;
`
}
