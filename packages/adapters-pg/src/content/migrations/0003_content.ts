import type { Migration } from "../../shared/Migrations.js"

// A revision stores only its delta: the pages and files it upserts, and NULL for those it deletes.
// Its content is its own entries over its parent's, down the chain to the nearest snapshot (a revision
// stored in full, depth 0) or the root. `depth` counts the revisions since that snapshot, so a new
// revision knows when to become one. No foreign keys: revisions are immutable, and a revision's
// content may be saved in the same unit of work as the revision, in either order.
// Pages and files are jsonb documents whose dates are epoch milliseconds.
export const migration: Migration = {
  id: 3,
  name: "revision content and blobs",
  sql: `
CREATE TABLE revision_contents (
  revision_id text COLLATE "C" PRIMARY KEY,
  space_id text COLLATE "C" NOT NULL,
  parent_id text COLLATE "C",
  depth integer NOT NULL CHECK (depth >= 0),
  is_snapshot boolean NOT NULL,
  CHECK (is_snapshot = (depth = 0))
);
CREATE INDEX revision_contents_space_idx ON revision_contents (space_id);

CREATE TABLE revision_pages (
  revision_id text COLLATE "C" NOT NULL,
  page_id text COLLATE "C" NOT NULL,
  -- NULL: the revision deletes the page.
  page jsonb,
  PRIMARY KEY (revision_id, page_id)
);

CREATE TABLE revision_files (
  revision_id text COLLATE "C" NOT NULL,
  file_id text COLLATE "C" NOT NULL,
  -- NULL: the revision deletes the file.
  file jsonb,
  PRIMARY KEY (revision_id, file_id)
);

-- Content-addressed: a key names one sequence of bytes, kept once.
CREATE TABLE blobs (
  key text COLLATE "C" PRIMARY KEY,
  bytes bytea NOT NULL
);
`
}
