import type { Migration } from "../../shared/Migrations.js"

// Change requests of a space, numbered 1, 2, 3… within it (unique per space).
export const migration: Migration = {
  id: 4,
  name: "change requests",
  sql: `
CREATE TABLE change_requests (
  id text COLLATE "C" PRIMARY KEY,
  space_id text COLLATE "C" NOT NULL,
  number integer NOT NULL CHECK (number > 0),
  status text NOT NULL CHECK (status IN ('draft', 'open', 'archived', 'merged')),
  subject text NOT NULL,
  initial_revision_id text COLLATE "C" NOT NULL,
  base_revision_id text COLLATE "C" NOT NULL,
  revision_id text COLLATE "C" NOT NULL,
  created_by text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  merged_at bigint,
  CONSTRAINT change_requests_number_key UNIQUE (space_id, number)
);
CREATE INDEX change_requests_listing ON change_requests (space_id, created_at, id);
`
}
