import type { FieldColumnName, StoredEvent } from "@octavo/domain"
import { snakeCase } from "../shared/Rows.js"

// The hourly rollup of site events (`insight_rollup`): one row per site, hour and combination of the
// fields below, with how many events it stands for and their ratings. Those fields are the ones a
// visitor's session keeps from one page to the next, so a row stands for the page views of a session
// in an hour: several times fewer rows than events, and narrower. Every event is counted in it by the
// statement that stores the event, so it is never behind. An aggregate whose columns and filters all
// read these fields (or the time, down to the hour) reads the rollup for the whole hours of its range
// and the events themselves for the parts of hours at its two ends (InsightsRepository).

/** The fields a rollup row keeps, in their column order. Sessions and visitors are kept, so distinct counts stay exact. */
export const rollupFields = [
  "type",
  "visitorId",
  "sessionId",
  "visitorBrowser",
  "visitorDevice",
  "visitorOS",
  "visitorBot",
  "visitorLanguage",
  "visitorGeoCountry",
  "visitorAuthenticated",
  "visitorClaims",
  "referrerDomain",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "utmTerm",
  "utmContent",
  "displayContext",
  "siteSection",
  "siteSpace",
  "siteShareKey"
] as const satisfies ReadonlyArray<keyof StoredEvent>

const kept: ReadonlySet<keyof StoredEvent> = new Set(rollupFields)

/** Whether the rollup keeps what a query's field column reads. */
export const rolledUp = (column: FieldColumnName, storedField: keyof StoredEvent): boolean => column !== "page" && kept.has(storedField)

export const HOUR_MS = 3_600_000

const columns = rollupFields.map(snakeCase)

/** The counts a rollup row adds up, and how each counts an event. */
const counts: ReadonlyArray<readonly [column: string, condition: string | undefined]> = [
  ["events", undefined],
  ["page_feedback_ok", "page_feedback_rating = 'ok'"],
  ["page_feedback_good", "page_feedback_rating = 'good'"],
  ["page_feedback_bad", "page_feedback_rating = 'bad'"],
  ["ask_positive", "ask_response_rating = 1"],
  ["ask_negative", "ask_response_rating = -1"]
]
export const rollupCounts = counts.map(([column]) => column)

/** The counts one event stands for, as columns of a select over `insight_events`. */
export const eventCounts = counts.map(([column, condition]) =>
  condition === undefined ? `1 AS ${column}` : `(CASE WHEN ${condition} THEN 1 ELSE 0 END) AS ${column}`
).join(", ")

/** The columns of an event that `addToRollup` reads. */
export const rollupSourceColumns = ["site_id", `"timestamp"`, ...columns, "page_feedback_rating", "ask_response_rating"].join(", ")

/**
 * SQL that adds the events of `source` (a relation with `insight_events`' columns) to the rollup: the
 * statement that stores a batch, the migration that creates the rollup, and the retention purge
 * share it. The claims are grouped by their JSON text (json has no equality) and kept as json. Rows
 * are written in the order of their key, so that two batches adding to the same rows lock them in the
 * same order.
 */
export const addToRollup = (source: string): string => {
  const grouped = columns.map((column) => column === "visitor_claims" ? "claims_text" : column)
  return `INSERT INTO insight_rollup (site_id, "timestamp", key, ${columns.join(", ")}, ${rollupCounts.join(", ")})
SELECT site_id, hour, sha256(convert_to(ROW(${grouped.join(", ")})::text, 'UTF8')), ${
    grouped.map((column) => column === "claims_text" ? "claims_text::json" : column).join(", ")
  }, ${rollupCounts.join(", ")}
FROM (
  SELECT site_id, "timestamp" - "timestamp" % ${HOUR_MS} AS hour,
    ${columns.map((column) => column === "visitor_claims" ? "visitor_claims::text AS claims_text" : column).join(", ")},
    ${
    counts.map(([column, condition]) => `count(*)${condition === undefined ? "" : ` FILTER (WHERE ${condition})`}::int AS ${column}`).join(
      ", "
    )
  }
  FROM ${source}
  GROUP BY site_id, hour, ${grouped.join(", ")}
) g
ORDER BY site_id, hour, 3
ON CONFLICT (site_id, "timestamp", key) DO UPDATE SET ${
    rollupCounts.map((column) => `${column} = insight_rollup.${column} + excluded.${column}`).join(", ")
  }`
}
