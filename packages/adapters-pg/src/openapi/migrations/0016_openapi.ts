import type { Migration } from "../../shared/Migrations.js"

// OpenAPI specs per organization and their versions. A spec not `complete` is a job for the workers:
// they take one with FOR UPDATE SKIP LOCKED and hold it under `claim` until `leased_until`.
export const migration: Migration = {
  id: 16,
  name: "openapi",
  sql: `
CREATE TABLE openapi_specs (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  slug text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  source_url text,
  processing_state text NOT NULL CHECK (processing_state IN ('pending', 'progress', 'complete')),
  last_version text COLLATE "C",
  last_processed_at bigint,
  last_process_error_code text CHECK (last_process_error_code IN ('FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR')),
  last_processed_errors jsonb NOT NULL DEFAULT '[]',
  last_processed_error_count integer NOT NULL DEFAULT 0,
  submitted_at bigint NOT NULL,
  claim text COLLATE "C",
  leased_until bigint,
  CONSTRAINT openapi_specs_slug UNIQUE (organization_id, slug)
);
CREATE INDEX openapi_specs_listing ON openapi_specs (organization_id, created_at, id);
-- The jobs, oldest submission first.
CREATE INDEX openapi_specs_jobs ON openapi_specs (submitted_at, id) WHERE processing_state IN ('pending', 'progress');

CREATE TABLE openapi_spec_versions (
  id text COLLATE "C" PRIMARY KEY,
  spec_id text COLLATE "C" NOT NULL REFERENCES openapi_specs ON DELETE CASCADE,
  number integer NOT NULL,
  created_at bigint NOT NULL,
  hash text NOT NULL,
  format text NOT NULL CHECK (format IN ('json', 'yaml')),
  source_url text,
  -- The text's UTF-8 bytes: a text column would lose a leading byte order mark on some drivers.
  content bytea NOT NULL,
  CONSTRAINT openapi_spec_versions_number UNIQUE (spec_id, number)
);
`
}
