import type { Migration } from "../../shared/Migrations.js"

// Site redirects (issue 39): a source is unique per site among the live redirects and among the drafts; they go
// with their site. The destination (GitBook's SiteRedirectDestination) is one jsonb value.
export const migration: Migration = {
  id: 23,
  name: "site_redirects",
  sql: `
CREATE TABLE site_redirects (
  id text COLLATE "C" PRIMARY KEY,
  site_id text COLLATE "C" NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  source text COLLATE "C" NOT NULL,
  draft boolean NOT NULL,
  capture_wildcard boolean NOT NULL,
  permanent boolean NOT NULL,
  destination jsonb NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint
);
CREATE UNIQUE INDEX site_redirects_source_key ON site_redirects (site_id, draft, source);
CREATE INDEX site_redirects_created_idx ON site_redirects (site_id, draft, created_at, id);
`
}
