import type { Migration } from "../../shared/Migrations.js"

// Site insights: one table partitioned by month of the event's timestamp (epoch milliseconds, like
// every date of this adapter). The monthly partitions are created by the repository before it
// appends into them and dropped whole by the retention purge. The primary key leads with
// (site_id, timestamp), the range that every aggregate and segment query reads; unique indexes of a
// partitioned table must hold its partition key, which the dedup key (that embeds the timestamp) can.
// The claims are json, not jsonb: their text as written, which aggregates answer as is.
export const migration: Migration = {
  id: 12,
  name: "insights",
  sql: `
CREATE TABLE insight_events (
  id text COLLATE "C" NOT NULL,
  site_id text COLLATE "C" NOT NULL,
  type text COLLATE "C" NOT NULL,
  "timestamp" bigint NOT NULL,
  dedup_key text COLLATE "C",
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
  url text COLLATE "C" NOT NULL,
  url_path text COLLATE "C" NOT NULL,
  referrer text COLLATE "C",
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
  space text COLLATE "C",
  revision text COLLATE "C",
  page text COLLATE "C",
  link_target_value text COLLATE "C",
  link_target_kind text COLLATE "C",
  link_target_domain text COLLATE "C",
  link_position text COLLATE "C",
  api_operation_path text COLLATE "C",
  api_operation_method text COLLATE "C",
  llms_variant text COLLATE "C",
  markdown_source text COLLATE "C",
  search_query text COLLATE "C",
  search_result_record_id text COLLATE "C",
  page_feedback_rating text COLLATE "C",
  page_feedback_comment text COLLATE "C",
  ask_response_rating smallint,
  ad_domain text COLLATE "C",
  ad_placement text COLLATE "C",
  trademark_placement text COLLATE "C",
  PRIMARY KEY (site_id, "timestamp", id)
) PARTITION BY RANGE ("timestamp");
-- Appends insert with ON CONFLICT DO NOTHING: an event whose key its site has stored is skipped.
CREATE UNIQUE INDEX insight_events_dedup ON insight_events (site_id, dedup_key, "timestamp") WHERE dedup_key IS NOT NULL;
`
}
