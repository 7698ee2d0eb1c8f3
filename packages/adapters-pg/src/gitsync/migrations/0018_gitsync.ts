import type { Migration } from "../../shared/Migrations.js"

// Git Sync: one state document per space, and the Git metadata of the revisions imports made.
export const migration: Migration = {
  id: 18,
  name: "gitsync",
  sql: `
CREATE TABLE gitsync_states (
  space_id text COLLATE "C" PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
  running boolean NOT NULL,
  state jsonb NOT NULL
);
CREATE INDEX gitsync_states_running ON gitsync_states (space_id) WHERE running;
CREATE TABLE gitsync_revisions (
  revision_id text COLLATE "C" PRIMARY KEY,
  space_id text COLLATE "C" NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
  git jsonb NOT NULL
);
`
}
