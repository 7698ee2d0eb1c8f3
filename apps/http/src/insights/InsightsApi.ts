import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { AggregateInput, TrackEventsInput } from "@octavo/domain"
import { Schema } from "effect"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { SitePath } from "../sites/SitesApi.js"

// Site insights (conventions-2.md §2): tracking, aggregate queries, visitor segments.

/** One column of an aggregate's answer: GitBook's SiteInsightsQueryEventsValues. */
export const AggregateColumnObject = Schema.Struct({
  column: Schema.String,
  /** A `visitorClaim` column repeats its claim. */
  claim: Schema.optional(Schema.String),
  values: Schema.Array(Schema.Unknown)
})

export const VisitorSegmentObject = Schema.Struct({
  title: Schema.String,
  claims: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  events: Schema.Number,
  visitors: Schema.Number,
  sessions: Schema.Number
})

const insights = "/v1/orgs/:organizationId/sites/:siteId/insights"

export class InsightsApi extends HttpApiGroup.make("insights")
  .add(
    HttpApiEndpoint.post("track", `${insights}/events`)
      .setPath(SitePath)
      .setPayload(TrackEventsInput)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("aggregate", `${insights}/events/aggregate`)
      .setPath(SitePath)
      .setPayload(AggregateInput)
      .addSuccess(Schema.Struct({ columns: Schema.Array(AggregateColumnObject) }))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("segments", `${insights}/visitor-segments`)
      .setPath(SitePath)
      .addSuccess(Schema.Struct({ items: Schema.Array(VisitorSegmentObject), count: Schema.Number }))
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
