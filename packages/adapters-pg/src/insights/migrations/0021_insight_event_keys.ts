import type { Migration } from "../../shared/Migrations.js"

// An event sent with its own timestamp is stored under its dedup key (which already holds the site
// and the timestamp) as its id, and any other under the random id it was given. The primary key
// (site_id, "timestamp", id) then refuses the same event a second time by itself, and the unique
// index of dedup keys goes: a second B-tree of every event, written at a random place on each insert,
// was a large part of what an append cost PostgreSQL. On a large table the update rewrites every
// event that has a key, once.
export const migration: Migration = {
  id: 21,
  name: "insight events keyed by their dedup key",
  sql: `
UPDATE insight_events SET id = dedup_key WHERE dedup_key IS NOT NULL;
DROP INDEX insight_events_dedup;
ALTER TABLE insight_events DROP COLUMN dedup_key;
`
}
