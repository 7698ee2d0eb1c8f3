import type { Migration } from "../../shared/Migrations.js"

// A site's adaptive schema is kept as json, not jsonb: jsonb reorders an object's keys, and the
// order of a schema's properties is the order of visitor segments' claims and titles, which must
// read the same on every storage.
export const migration: Migration = {
  id: 13,
  name: "sites_schema_order",
  sql: `
ALTER TABLE sites ALTER COLUMN adaptive_schema TYPE json USING adaptive_schema::json;
`
}
