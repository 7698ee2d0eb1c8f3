import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { AggregateInput, decodedInput, storedKeysRecord, TrackEventsInput } from "@octavo/domain"
import { Schema } from "effect"
import { errors, Unauthorized } from "../shared/Errors.js"
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
  /** Named by the adaptive schema's properties: kept as own keys, `__proto__` included. */
  claims: storedKeysRecord(Schema.Unknown),
  events: Schema.Number,
  visitors: Schema.Number,
  sessions: Schema.Number
})

const insights = "/v1/orgs/:organizationId/sites/:siteId/insights"

export class InsightsApi extends HttpApiGroup.make("insights")
  .add(
    // A member's token, or none (decision 2): a visitor of a published site the visibility admits,
    // with its share key or visitor token in a header or the site's cookie.
    HttpApiEndpoint.post("track", `${insights}/events`)
      .setPath(SitePath)
      .setPayload(decodedInput(TrackEventsInput))
      .setHeaders(Schema.Struct({
        authorization: Schema.optional(Schema.String),
        "x-octavo-share-key": Schema.optional(Schema.String),
        "x-octavo-visitor-token": Schema.optional(Schema.String),
        cookie: Schema.optional(Schema.String)
      }))
      .pipe(errors(400, 403, 404))
      .addError(Unauthorized)
      // The token is optional: without one, a visitor; with one, it must be valid (401 otherwise).
      .annotate(OpenApi.Override, { security: [{}, { bearer: [] }] })
  )
  .add(
    HttpApiEndpoint.post("aggregate", `${insights}/events/aggregate`)
      .setPath(SitePath)
      .setPayload(AggregateInput)
      .addSuccess(Schema.Struct({ columns: Schema.Array(AggregateColumnObject) }))
      .pipe(errors(400, 403, 404))
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.get("segments", `${insights}/visitor-segments`)
      .setPath(SitePath)
      .addSuccess(Schema.Struct({ items: Schema.Array(VisitorSegmentObject), count: Schema.Number }))
      .pipe(errors(400, 403, 404))
      .middleware(Authentication)
  )
{}
