import { Context, type Effect, type Option } from "effect"
import type { SiteId } from "../shared/Ids.js"
import type { StoredEvent, UserAgentInfo } from "./Event.js"
import type { QueryResult, QueryValue, ResolvedQuery } from "./Query.js"

/** One combination of claim values and what its visitors did. */
export interface SegmentCount {
  /** The value of each asked claim path, in order; null when the event's claims lack it. */
  readonly values: ReadonlyArray<QueryValue>
  readonly events: number
  readonly visitors: number
  readonly sessions: number
}

/**
 * A site's events. Narrow on purpose (append a batch, run an aggregation, count segments, drop the
 * old), so that a columnar engine could stand behind it.
 */
export class InsightsRepository extends Context.Tag("@octavo/domain/InsightsRepository")<InsightsRepository, {
  /** Stores the batch in one write; an event whose `dedupKey` its site has stored already is skipped. */
  readonly append: (events: ReadonlyArray<StoredEvent>) => Effect.Effect<void>
  readonly aggregate: (query: ResolvedQuery) => Effect.Effect<QueryResult>
  /**
   * The site's events at or after `since`, grouped by the values of the claims at `paths`
   * (each a dot path split into names): events, distinct visitors and distinct sessions per group.
   */
  readonly segments: (
    siteId: SiteId,
    paths: ReadonlyArray<ReadonlyArray<string>>,
    since: Date
  ) => Effect.Effect<ReadonlyArray<SegmentCount>>
  /** Removes every event before `cutoff`, of every site. */
  readonly purgeBefore: (cutoff: Date) => Effect.Effect<void>
}>() {}

/** Reads what a user agent says of the visitor (a library's job, outside the domain). */
export class UserAgents extends Context.Tag("@octavo/domain/UserAgents")<UserAgents, {
  readonly parse: (userAgent: string) => UserAgentInfo
}>() {}

/** Checks a site's visitor tokens (a library's job, outside the domain). */
/** A verified visitor token: the claims that speak of the visitor, and when it expires. */
export interface VisitorToken {
  /** Its claims but the registered ones (`exp`, `iat`, `nbf`, `aud`, `iss`, `sub`, `jti`). */
  readonly claims: Readonly<Record<string, unknown>>
  /** `exp`, in seconds since the epoch. */
  readonly expires: number
}

export class VisitorTokens extends Context.Tag("@octavo/domain/VisitorTokens")<VisitorTokens, {
  /**
   * The token, when it is a JWT signed with HS256 under `secret` whose signature holds and whose
   * `exp` (required), `nbf` and `iat` allow it now, with 60 s of leeway; none otherwise.
   */
  readonly verify: (token: string, secret: string) => Effect.Effect<Option.Option<VisitorToken>>
}>() {}

/** The storage the insights context owns. */
export type InsightsPorts = InsightsRepository
