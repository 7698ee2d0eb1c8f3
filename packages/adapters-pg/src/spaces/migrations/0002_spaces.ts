import type { Migration } from "../../shared/Migrations.js"

// Positions are order keys that compare with COLLATE "C", JavaScript's order of ASCII strings.
// parent_id, revision_id and revisions.space_id have no foreign keys: a unit of work writes a space,
// its first revision and its parent's changes in any order, and a collection's children move up
// before the collection is deleted (the domain's rule, not the schema's).
export const migration: Migration = {
  id: 2,
  name: "collections, spaces and custom fields",
  sql: `
CREATE TABLE collections (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  title text NOT NULL,
  description text,
  parent_id text COLLATE "C",
  position text COLLATE "C" NOT NULL,
  default_level text NOT NULL CHECK (default_level IN ('read', 'comment', 'edit', 'review', 'create', 'admin')),
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX collections_children_idx ON collections (organization_id, parent_id, position, id);
CREATE INDEX collections_created_idx ON collections (organization_id, created_at, id);

CREATE TABLE spaces (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  parent_id text COLLATE "C",
  position text COLLATE "C" NOT NULL,
  title text NOT NULL,
  emoji text NOT NULL,
  visibility text NOT NULL
    CHECK (visibility IN ('public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private')),
  edit_mode text NOT NULL CHECK (edit_mode IN ('live', 'locked')),
  default_level text NOT NULL CHECK (default_level IN ('read', 'comment', 'edit', 'review', 'create', 'admin')),
  revision_id text COLLATE "C" NOT NULL,
  created_by text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  deleted_at bigint
);
CREATE INDEX spaces_children_idx ON spaces (organization_id, parent_id, position, id);
CREATE INDEX spaces_created_idx ON spaces (organization_id, created_at, id);
-- Lists the spaces of collections whatever their organization (moves and transfers of a collection).
CREATE INDEX spaces_parent_idx ON spaces (parent_id) WHERE parent_id IS NOT NULL;
-- The purge looks only at soft-deleted spaces.
CREATE INDEX spaces_deleted_idx ON spaces (deleted_at, id) WHERE deleted_at IS NOT NULL;

CREATE TABLE revisions (
  id text COLLATE "C" PRIMARY KEY,
  space_id text COLLATE "C" NOT NULL,
  parents text[] NOT NULL,
  type text NOT NULL CHECK (type IN ('edits', 'merge', 'update')),
  created_at bigint NOT NULL
);
CREATE INDEX revisions_space_idx ON revisions (space_id);

CREATE TABLE custom_fields (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('text', 'number', 'boolean', 'select', 'multi-select')),
  title text,
  description text,
  placeholder text,
  options text[],
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  CONSTRAINT custom_fields_name_key UNIQUE (organization_id, name)
);
CREATE INDEX custom_fields_created_idx ON custom_fields (organization_id, created_at, id);

CREATE TABLE custom_field_values (
  space_id text COLLATE "C" NOT NULL,
  field_id text COLLATE "C" NOT NULL REFERENCES custom_fields (id) ON DELETE CASCADE,
  value jsonb NOT NULL,
  PRIMARY KEY (space_id, field_id)
);
CREATE INDEX custom_field_values_field_idx ON custom_field_values (field_id);
`
}
