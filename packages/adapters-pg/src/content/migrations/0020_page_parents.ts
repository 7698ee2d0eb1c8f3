import type { Migration } from "../../shared/Migrations.js"

// A read of one page walks its branch (RevisionContentRepository's loadBranch) without reading the
// rest of the revision. Up the tree it seeks each page's versions by id; down the tree it asks which
// entries name a page as their parent. Each finds a handful of entries, which the revision's chain
// then narrows to the nearest one.
export const migration: Migration = {
  id: 20,
  name: "revision pages by id and by parent",
  sql: `
CREATE INDEX revision_pages_page_idx ON revision_pages (page_id);
CREATE INDEX revision_pages_parent_idx ON revision_pages (((page->>'parentId') COLLATE "C"));
`
}
