import type { Migration } from "../../shared/Migrations.js"
import { addToRollup } from "../Rollup.js"

// The hourly rollup of site events (Rollup.ts), filled from the events stored so far. Its key is the
// SHA-256 of the combination's text (as a row value, which tells NULL from ''): the combination itself
// may run to kilobytes (claims of 4 KiB, long UTM values), more than an index entry holds.
export const migration: Migration = {
  id: 19,
  name: "insight_rollup",
  sql: `
CREATE TABLE insight_rollup (
  site_id text COLLATE "C" NOT NULL,
  "timestamp" bigint NOT NULL,
  key bytea NOT NULL,
  type text COLLATE "C" NOT NULL,
  visitor_id text COLLATE "C" NOT NULL,
  session_id text COLLATE "C" NOT NULL,
  visitor_browser text COLLATE "C" NOT NULL,
  visitor_device text COLLATE "C" NOT NULL,
  visitor_os text COLLATE "C" NOT NULL,
  visitor_bot text COLLATE "C",
  visitor_language text COLLATE "C",
  visitor_geo_country text COLLATE "C",
  visitor_authenticated boolean NOT NULL,
  visitor_claims json,
  referrer_domain text COLLATE "C",
  utm_source text COLLATE "C",
  utm_medium text COLLATE "C",
  utm_campaign text COLLATE "C",
  utm_term text COLLATE "C",
  utm_content text COLLATE "C",
  display_context text COLLATE "C" NOT NULL,
  site_section text COLLATE "C",
  site_space text COLLATE "C",
  site_share_key text COLLATE "C",
  events integer NOT NULL,
  page_feedback_ok integer NOT NULL,
  page_feedback_good integer NOT NULL,
  page_feedback_bad integer NOT NULL,
  ask_positive integer NOT NULL,
  ask_negative integer NOT NULL,
  PRIMARY KEY (site_id, "timestamp", key)
);
${addToRollup("insight_events")};
`
}
