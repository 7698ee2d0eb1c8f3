import type { Migration } from "../../shared/Migrations.js"

// Change request comments, their replies and the reactions to either; `replies` and the open
// counts per space are counters kept by the statements that change what they count.
export const migration: Migration = {
  id: 10,
  name: "comments",
  sql: `
CREATE TABLE comments (
  id text COLLATE "C" PRIMARY KEY,
  space_id text COLLATE "C" NOT NULL,
  change_request_id text COLLATE "C" NOT NULL,
  posted_by text COLLATE "C" NOT NULL,
  posted_at bigint NOT NULL,
  edited_at bigint,
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'resolved')),
  resolved_at bigint,
  resolved_by text COLLATE "C",
  revision_id text COLLATE "C" NOT NULL,
  page_id text COLLATE "C",
  node_id text,
  node_preview text,
  replies integer NOT NULL DEFAULT 0
);
-- The listing, in either order, and its filters by status and by page.
CREATE INDEX comments_listing ON comments (change_request_id, posted_at, id);
CREATE INDEX comments_by_status ON comments (change_request_id, status, posted_at, id);
CREATE INDEX comments_by_page ON comments (change_request_id, page_id, posted_at, id) WHERE page_id IS NOT NULL;

CREATE TABLE comment_replies (
  id text COLLATE "C" PRIMARY KEY,
  comment_id text COLLATE "C" NOT NULL REFERENCES comments ON DELETE CASCADE,
  space_id text COLLATE "C" NOT NULL,
  change_request_id text COLLATE "C" NOT NULL,
  posted_by text COLLATE "C" NOT NULL,
  posted_at bigint NOT NULL,
  edited_at bigint,
  body text NOT NULL
);
CREATE INDEX comment_replies_listing ON comment_replies (comment_id, posted_at, id);

-- A reaction's subject is the comment (comment_id) or one of its replies.
CREATE TABLE comment_reactions (
  comment_id text COLLATE "C" NOT NULL REFERENCES comments ON DELETE CASCADE,
  subject_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  emoji text COLLATE "C" NOT NULL,
  reacted_at bigint NOT NULL,
  PRIMARY KEY (subject_id, user_id, emoji)
);
CREATE INDEX comment_reactions_thread ON comment_reactions (comment_id);

CREATE TABLE space_comment_counts (
  space_id text COLLATE "C" PRIMARY KEY,
  open integer NOT NULL
);
`
}
