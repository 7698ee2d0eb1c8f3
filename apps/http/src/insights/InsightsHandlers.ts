import * as Cookies from "@effect/platform/Cookies"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Actor, type AggregateColumnValues, Identity, Insights, type QueryColumn } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { bearerToken, tokenRequired } from "../shared/Security.js"
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
      const identity = yield* Identity
      return handlers
        .handle("track", ({ headers, path, payload }) => {
          if (headers.authorization !== undefined) {
            // A member's token: checked as every authenticated endpoint checks it.
            const token = bearerToken(headers.authorization)
            if (token === undefined) return Effect.fail(tokenRequired)
            return identity.authenticate(token).pipe(
              Effect.mapError(() => tokenRequired),
              Effect.flatMap((actor) =>
                domain(insights.track(path.organizationId, path.siteId, payload)).pipe(Effect.provideService(Actor, actor))
              )
            )
          }
          // A visitor: its share key or visitor token from a header, else from the site's cookie.
          const cookies = headers.cookie === undefined ? {} : Cookies.parseHeader(headers.cookie)
          const cookie = (name: string) => Object.hasOwn(cookies, name) ? cookies[name] : undefined
          return domain(insights.trackAnonymously(path.organizationId, path.siteId, payload, {
            shareKey: headers["x-octavo-share-key"] ?? cookie(`octavo_share_${path.siteId}`),
            visitorToken: headers["x-octavo-visitor-token"] ?? cookie(`octavo_visitor_${path.siteId}`)
          }))
        })
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
