import { Duration, Effect, Either, Option } from "effect"
import { InvalidInput, NotFound } from "../shared/Errors.js"
import type { OrganizationId, SiteId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { type AdaptiveJsonSchema, deterministicClaims } from "../sites/AdaptiveSchema.js"
import { ShareLinkRepository, SiteRepository } from "../sites/Ports.js"
import { openingKey } from "../sites/Reading.js"
import { Sites } from "../sites/SiteService.js"
import { AggregateInput, resolveQuery } from "./Aggregate.js"
import { RecentUrls, RecentUrlsLive } from "./Caches.js"
import type { StoredEvent } from "./Event.js"
import { InsightsRepository, UserAgents, VisitorTokens } from "./Ports.js"
import type { DimensionValue, MetricValue, QueryColumn } from "./Query.js"
import { TrackEventsInput, toStoredEvent } from "./Track.js"

/** Events are kept this long (conventions-2.md §2). */
export const INSIGHTS_RETENTION = Duration.days(400)
/** Segments count the events of this window. */
const SEGMENT_WINDOW = Duration.days(30)

/** One column of an aggregate's answer: which, and its value in each row. */
export interface AggregateColumnValues {
  readonly column: QueryColumn
  readonly values: ReadonlyArray<DimensionValue | MetricValue>
}

/** A combination of the schema's deterministic claims and what its visitors did in the last 30 days. */
export interface VisitorSegment {
  readonly title: string
  /** The combination, nested as the claims are. */
  readonly claims: Readonly<Record<string, unknown>>
  readonly events: number
  readonly visitors: number
  readonly sessions: number
}

/** Sets `value` at `path` in a nested object built of plain records. */
const nest = (target: Record<string, unknown>, path: ReadonlyArray<string>, value: unknown) => {
  let at = target
  for (const name of path.slice(0, -1)) {
    const next = Object.hasOwn(at, name) ? at[name] : undefined
    const child: Record<string, unknown> = typeof next === "object" && next !== null ? next as Record<string, unknown> : {}
    Object.defineProperty(at, name, { value: child, enumerable: true, writable: true, configurable: true })
    at = child
  }
  Object.defineProperty(at, path[path.length - 1]!, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * Site insights (conventions-2.md §2): tracking visitors' events, aggregate queries over them, and
 * visitor segments. A member of the site's organization (role `read` suffices) tracks and reads,
 * published or not.
 */
export class Insights extends Effect.Service<Insights>()("@octavo/domain/Insights", {
  effect: Effect.gen(function*() {
    const events = yield* InsightsRepository
    const userAgents = yield* UserAgents
    const sites = yield* Sites
    const siteRepository = yield* SiteRepository
    const secrets = yield* Secrets
    const visitorTokens = yield* VisitorTokens
    const shareLinks = yield* ShareLinkRepository
    const recentUrls = yield* RecentUrls

    /** Stores a batch, all or nothing: the first invalid event names its index. */
    const store = (
      siteId: SiteId,
      input: TrackEventsInput,
      claimsOf: (event: TrackEventsInput["events"][number]) => { readonly claims: unknown; readonly authenticated: boolean }
    ) =>
      Effect.gen(function*() {
        const valid = yield* validate(TrackEventsInput)(input)
        const at = yield* now
        const stored: Array<StoredEvent> = []
        for (const [i, event] of valid.events.entries()) {
          const { authenticated, claims } = claimsOf(event)
          const result = toStoredEvent(event, {
            id: yield* secrets.newId,
            siteId,
            now: at,
            ua: userAgents.parse(event.session.userAgent),
            visitorClaims: claims,
            visitorAuthenticated: authenticated
          }, recentUrls)
          if (Either.isLeft(result)) {
            const { field, rule } = result.left
            return yield* new InvalidInput({ field: `events.${i}${field === "" ? "" : `.${field}`}`, rule })
          }
          stored.push(result.right)
        }
        yield* events.append(stored)
      })

    /** A member's batch (role `read` suffices, published or not): its token vouches for the claims its events carry. */
    const track = (organizationId: OrganizationId, siteId: SiteId, input: TrackEventsInput) =>
      Effect.zipRight(
        sites.locate(organizationId, siteId),
        store(siteId, input, (event) => {
          const claims = event.session.visitorAuthClaims
          return { claims: claims ?? null, authenticated: claims !== undefined }
        })
      )

    /**
     * A visitor's batch, without a member token (decision 2): only for a published site whose
     * visibility admits the visitor: `public` and `unlisted` anyone, `share-link` with an active key,
     * `visitor-auth` with a valid visitor token, whose claims are stored (the events' own are not:
     * nothing vouches for them). Anything else is as if the site did not exist.
     */
    const trackAnonymously = (
      organizationId: OrganizationId,
      siteId: SiteId,
      input: TrackEventsInput,
      credentials: { readonly shareKey?: string | undefined; readonly visitorToken?: string | undefined }
    ) =>
      Effect.gen(function*() {
        const notFound = () => new NotFound({ entity: "site", id: siteId })
        const found = yield* siteRepository.findById(siteId)
        if (Option.isNone(found) || found.value.organizationId !== organizationId || !found.value.published) return yield* notFound()
        const site = found.value
        const token = credentials.visitorToken
        const verified = token === undefined ? Option.none() : yield* visitorTokens.verify(token, site.publishingAuth.privateKey)
        const admitted = site.visibility === "public" || site.visibility === "unlisted" ||
          (site.visibility === "share-link" &&
            openingKey(site, credentials.shareKey, credentials.shareKey === undefined ? [] : yield* shareLinks.active(site.id)) !==
              undefined) ||
          (site.visibility === "visitor-auth" && Option.isSome(verified))
        if (!admitted) return yield* notFound()
        const claims = Option.getOrNull(Option.map(verified, (t) => t.claims))
        yield* store(siteId, input, () => ({ claims, authenticated: claims !== null }))
      })

    /**
     * Events the server records itself for a visitor it has already admitted to the published site
     * (the reader's page views and searches), with what the reader knows of the visitor's claims.
     */
    const trackAdmitted = (
      siteId: SiteId,
      input: TrackEventsInput,
      visitor: { readonly claims: Readonly<Record<string, unknown>> | null; readonly authenticated: boolean }
    ) => store(siteId, input, () => visitor)

    /** The query's answer as columns, in `select` order. */
    const aggregate = (organizationId: OrganizationId, siteId: SiteId, input: AggregateInput) =>
      Effect.gen(function*() {
        yield* sites.locate(organizationId, siteId)
        const valid = yield* validate(AggregateInput)(input)
        const query = yield* resolveQuery(siteId, valid, yield* now)
        const rows = yield* events.aggregate(query)
        return query.select.map((column, i): AggregateColumnValues => ({ column, values: rows.map((row) => row[i]!) }))
      })

    /** The segments of the schema's deterministic claims with events in the last 30 days, most visitors first. */
    const segments = (organizationId: OrganizationId, siteId: SiteId) =>
      Effect.gen(function*() {
        yield* sites.locate(organizationId, siteId)
        const site = yield* siteRepository.findById(siteId)
        const schema = Option.flatMap(site, (s) => Option.fromNullable(s.adaptiveSchema?.jsonSchema))
        const claims = Option.match(schema, { onNone: () => [], onSome: (s) => deterministicClaims(s as AdaptiveJsonSchema) })
        const since = new Date((yield* now).getTime() - Duration.toMillis(SEGMENT_WINDOW))
        const counts = yield* events.segments(siteId, claims.map((c) => c.path), since)
        // Values the schema does not declare count as missing.
        const merged = new Map<
          string,
          { claims: Record<string, unknown>; title: string; events: number; visitors: number; sessions: number }
        >()
        for (const count of counts) {
          const combination: Record<string, unknown> = {}
          const parts: Array<string> = []
          claims.forEach((claim, i) => {
            const value = count.values[i]
            if (value === null || value === undefined || !claim.values.includes(value as string | boolean)) return
            nest(combination, claim.path, value)
            parts.push(`${claim.path.join(".")}: ${String(value)}`)
          })
          const key = JSON.stringify(parts)
          const held = merged.get(key)
          merged.set(key, {
            claims: combination,
            title: parts.length === 0 ? "All visitors" : parts.join(", "),
            // Groups that differ only by undeclared values merge; a visitor seen with two such values counts twice.
            events: (held?.events ?? 0) + count.events,
            visitors: (held?.visitors ?? 0) + count.visitors,
            sessions: (held?.sessions ?? 0) + count.sessions
          })
        }
        return [...merged.values()]
          .filter((s) => s.events > 0)
          .sort((a, b) => b.visitors - a.visitors || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
          .map((s): VisitorSegment => s)
      })

    /** Removes the events past retention; safe on several servers at once. */
    const purgeExpired = Effect.flatMap(now, (at) => events.purgeBefore(new Date(at.getTime() - Duration.toMillis(INSIGHTS_RETENTION))))

    return { track, trackAnonymously, trackAdmitted, aggregate, segments, purgeExpired } as const
  }),
  dependencies: [RecentUrlsLive]
}) {}
