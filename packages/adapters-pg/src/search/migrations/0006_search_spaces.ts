import type { Migration } from "../../shared/Migrations.js"

// Which revision of each space its search documents follow. A space missing here, or whose
// active revision is another, is reindexed by the job that runs at start.
export const migration: Migration = {
  id: 6,
  name: "search spaces",
  sql: `
CREATE TABLE search_spaces (
  space_id text COLLATE "C" PRIMARY KEY,
  revision_id text COLLATE "C" NOT NULL
);
`
}
