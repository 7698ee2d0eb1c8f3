import { HttpApiBuilder } from "@effect/platform"
import { type AggregateColumnValues, Insights, type QueryColumn } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { InsightsApi } from "./InsightsApi.js"

/** GitBook's name of a column. */
const columnName = (column: QueryColumn): string => {
  switch (column.kind) {
    case "datetime":
    case "dayOfWeek":
    case "hourOfDay":
    case "visitorClaim":
      return column.kind
    case "field":
    case "none":
      return column.column
    case "metric":
      return column.metric
  }
}

const presentColumn = ({ column, values }: AggregateColumnValues) => ({
  column: columnName(column),
  ...(column.kind === "visitorClaim" ? { claim: column.claim } : {}),
  values
})

export const InsightsLive = HttpApiBuilder.group(
  OctavoBase.add(InsightsApi),
  "insights",
  (handlers) =>
    Effect.gen(function*() {
      const insights = yield* Insights
      return handlers
        .handle("track", ({ path, payload }) => domain(insights.track(path.organizationId, path.siteId, payload)))
        .handle("aggregate", ({ path, payload }) =>
          domain(insights.aggregate(path.organizationId, path.siteId, payload)).pipe(
            Effect.map((columns) => ({ columns: columns.map(presentColumn) }))
          ))
        .handle("segments", ({ path }) =>
          domain(insights.segments(path.organizationId, path.siteId)).pipe(
            Effect.map((items) => ({ items, count: items.length }))
          ))
    })
)
