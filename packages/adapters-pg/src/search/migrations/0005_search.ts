import type { Migration } from "../../shared/Migrations.js"

// The search index: one document per page of a space's active revision. Lexemes arrive already
// normalized by the domain, so they are stored as given (array_to_tsvector), never re-parsed;
// the GIN index finds the documents holding a term, equal or by prefix. Sections are jsonb,
// an array of { id, title, anchor, body } in page order.
export const migration: Migration = {
  id: 5,
  name: "search documents",
  sql: `
CREATE TABLE search_documents (
  space_id text COLLATE "C" NOT NULL,
  page_id text COLLATE "C" NOT NULL,
  title text NOT NULL,
  path text COLLATE "C" NOT NULL,
  sections jsonb NOT NULL,
  title_lexemes tsvector NOT NULL,
  lexemes tsvector NOT NULL,
  PRIMARY KEY (space_id, page_id)
);
CREATE INDEX search_documents_lexemes ON search_documents USING gin (lexemes);
`
}
