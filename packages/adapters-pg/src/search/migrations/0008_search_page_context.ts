import type { Migration } from "../../shared/Migrations.js"

// A search result names its page's description and the pages above it (ancestors, jsonb: an array
// of { id, title } from the top down). Documents written before have neither: forgetting which
// revision each space follows makes the job that runs at start reindex every space.
export const migration: Migration = {
  id: 8,
  name: "search documents with descriptions and ancestors",
  sql: `
ALTER TABLE search_documents ADD COLUMN description text NOT NULL DEFAULT '';
ALTER TABLE search_documents ADD COLUMN ancestors jsonb NOT NULL DEFAULT '[]';
DELETE FROM search_spaces;
`
}
