import type { Migration } from "../../shared/Migrations.js"

// A version's text in chunks of at most 256 KiB, one row each (issue 38): a 10 MiB text written or read in one
// statement held the embedded database, and with it the server's event loop, for more than a second.
export const migration: Migration = {
  id: 22,
  name: "openapi_text_chunks",
  sql: `
CREATE TABLE openapi_spec_version_chunks (
  version_id text COLLATE "C" NOT NULL REFERENCES openapi_spec_versions ON DELETE CASCADE,
  number integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (version_id, number)
);
INSERT INTO openapi_spec_version_chunks (version_id, number, bytes) SELECT id, 0, content FROM openapi_spec_versions;
ALTER TABLE openapi_spec_versions DROP COLUMN content;
`
}
