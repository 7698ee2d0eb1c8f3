import { Effect, Schema } from "effect"
import { PageId, SiteId, SiteRedirectId, SiteSectionId, SiteSpaceId, SpaceId } from "../shared/Ids.js"
import { boundedArray, boundedString, HttpUrl, StoredString } from "../shared/Limits.js"
import { sectionSegments, type ShownTree, siteSpaceSegments } from "./Reading.js"
import type { SiteSpace } from "./Site.js"

// Site redirects (issue 39), GitBook's `SiteRedirect`: a path of the site that no longer leads to a page, and
// where it leads now. A published site answers with them where no page matches (reader/ReaderService.ts).

/** Redirects per site, at most (GitBook's bulk endpoint takes 500 at a time; it states no total). */
export const MAX_SITE_REDIRECTS = 5000

/** Operations in one bulk request (GitBook's `bulkUpsertSiteRedirects`). */
export const MAX_BULK_REDIRECTS = 500

/** GitBook's `SiteRedirectSourcePath`: `/` then segments of unreserved characters or %XX, with an optional final `*` or `/*`. */
const SOURCE_PATTERN = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/

export const SiteRedirectSource = boundedString({ min: 2, max: 512 }).pipe(
  Schema.filter(
    (s) =>
      SOURCE_PATTERN.test(s) ||
      "must be a path such as /old/page: / then segments of letters, digits, - . _ ~ + or %XX, ending in * or /* for a wildcard",
    { jsonSchema: { pattern: SOURCE_PATTERN.source } }
  )
)

/** Where a redirect leads, as stored and shown (GitBook's `SiteRedirectDestination`). */
export const SiteRedirectDestination = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("site-section"), siteSectionId: SiteSectionId }),
  Schema.Struct({ kind: Schema.Literal("site-space"), siteSpaceId: SiteSpaceId }),
  Schema.Struct({ kind: Schema.Literal("site-page"), siteSpaceId: SiteSpaceId, pageId: PageId }),
  Schema.Struct({ kind: Schema.Literal("external"), url: HttpUrl })
)
export type SiteRedirectDestination = typeof SiteRedirectDestination.Type

/** What a write may name (GitBook's `SiteRedirectInputDestination`): a destination, or a page by its path in a space. */
export const SiteRedirectInputDestination = Schema.Union(
  SiteRedirectDestination,
  Schema.Struct({ kind: Schema.Literal("path"), spaceId: SpaceId, path: boundedString({ max: 1024 }) })
)
export type SiteRedirectInputDestination = typeof SiteRedirectInputDestination.Type

export const SiteRedirect = Schema.Struct({
  id: SiteRedirectId,
  siteId: SiteId,
  /** In canonical form (`canonicalSource`): unique per site among the live ones, and among the drafts. */
  source: Schema.String,
  /** A draft is kept but not served. */
  draft: Schema.Boolean,
  /** A wildcard's matched suffix goes after the destination's URL. */
  captureWildcard: Schema.Boolean,
  /** Served as 308 on a public site, else 307 (GitBook's `permanent`). */
  permanent: Schema.Boolean,
  destination: SiteRedirectDestination,
  createdAt: Schema.DateFromSelf,
  /** Null until changed. */
  updatedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type SiteRedirect = typeof SiteRedirect.Type

export const SiteRedirectOrderBy = Schema.Literal("createdAt", "updatedAt", "source")
export type SiteRedirectOrderBy = typeof SiteRedirectOrderBy.Type

export const CreateSiteRedirectInput = Schema.Struct({
  source: SiteRedirectSource,
  captureWildcard: Schema.optional(Schema.Boolean),
  draft: Schema.optional(Schema.Boolean),
  permanent: Schema.optional(Schema.Boolean),
  destination: SiteRedirectInputDestination
})
export type CreateSiteRedirectInput = typeof CreateSiteRedirectInput.Type

/** GitBook's PATCH takes a destination without the `path` form. */
export const UpdateSiteRedirectInput = Schema.Struct({
  source: Schema.optional(SiteRedirectSource),
  captureWildcard: Schema.optional(Schema.Boolean),
  draft: Schema.optional(Schema.Boolean),
  permanent: Schema.optional(Schema.Boolean),
  destination: Schema.optional(SiteRedirectDestination)
})
export type UpdateSiteRedirectInput = typeof UpdateSiteRedirectInput.Type

/** One operation of a bulk request: publish a draft, or upsert (a destination) or delete (null) a live or draft redirect. */
export const BulkSiteRedirectItem = Schema.Union(
  Schema.Struct({ source: SiteRedirectSource, intent: Schema.Literal("publish") }),
  Schema.Struct({
    source: SiteRedirectSource,
    intent: Schema.optional(Schema.Literal("live", "draft")),
    captureWildcard: Schema.optional(Schema.Boolean),
    permanent: Schema.optional(Schema.Boolean),
    destination: Schema.NullOr(SiteRedirectInputDestination)
  })
)
export type BulkSiteRedirectItem = typeof BulkSiteRedirectItem.Type

export const BulkSiteRedirectsInput = Schema.Struct({
  redirects: boundedArray(BulkSiteRedirectItem, { min: 1, max: MAX_BULK_REDIRECTS })
})
export type BulkSiteRedirectsInput = typeof BulkSiteRedirectsInput.Type

/** What became of one bulk operation. */
export type BulkSiteRedirectResult =
  | { readonly status: "created" | "updated" | "published"; readonly source: string; readonly draft: boolean; readonly id: string }
  | { readonly status: "deleted"; readonly source: string; readonly draft: boolean }
  | { readonly status: "error"; readonly source: string; readonly draft: boolean; readonly error: string }

export const SiteRedirectListFilter = Schema.Struct({
  search: Schema.optional(StoredString),
  draft: Schema.optional(Schema.Boolean),
  orderBy: Schema.optional(SiteRedirectOrderBy)
})
export type SiteRedirectListFilter = typeof SiteRedirectListFilter.Type

// Matching -------------------------------------------------------------------------------------

const decodeSegment = (segment: string): string => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** A decoded segment in the one spelling sources are kept in: %XX (upper case) for all but letters, digits, - . _ ~ and +. */
export const encodeSegment = (segment: string): string =>
  encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%2B/g, "+")

/**
 * A valid source in canonical form: each segment decoded and encoded again (`encodeSegment`), the wildcard kept, so
 * that `/a%2db` and `/a-b` are one source and a request's path finds it by equality.
 */
export const canonicalSource = (source: string): string => {
  const wildcard = source.endsWith("*")
  const body = wildcard ? source.slice(0, -1) : source
  const segments = body.split("/").slice(1)
  return `/${segments.map((s) => (s === "" ? "" : encodeSegment(decodeSegment(s)))).join("/")}${wildcard ? "*" : ""}`
}

/** The longest source there can be: a longer path matches only wildcards of its first 511 characters. */
const MAX_SOURCE = 512

/** The sources that could match a path of decoded segments, in the order they win: the exact one, then wildcards, longest first. */
export const candidateSources = (segments: ReadonlyArray<string>): ReadonlyArray<string> => {
  const path = `/${segments.map(encodeSegment).join("/")}`
  const candidates: Array<string> = []
  if (segments.length > 0 && path.length <= MAX_SOURCE) candidates.push(path)
  for (let end = Math.min(path.length, MAX_SOURCE - 1); end >= 2; end--) candidates.push(`${path.slice(0, end)}*`)
  return candidates
}

/** The redirect that wins for a path among those that match it (the first of `candidateSources`), with the wildcard's suffix. */
export const bestMatch = (
  segments: ReadonlyArray<string>,
  found: ReadonlyArray<SiteRedirect>
): { readonly redirect: SiteRedirect; readonly suffix: string } | undefined => {
  const path = `/${segments.map(encodeSegment).join("/")}`
  const bySource = new Map(found.map((r) => [r.source, r] as const))
  for (const candidate of candidateSources(segments)) {
    const redirect = bySource.get(candidate)
    if (redirect === undefined) continue
    const suffix = candidate.endsWith("*") ? path.slice(candidate.length - 1) : ""
    return { redirect, suffix: suffix.split("/").map(decodeSegment).join("/") }
  }
  return undefined
}

/** A URL with a wildcard's suffix after it when the redirect captures it: `/new` and `a/b` make `/new/a/b`. */
export const withSuffix = (url: string, suffix: string, capture: boolean): string => {
  if (!capture || suffix === "") return url
  const encoded = suffix.split("/").map((s) => (s === "" ? "" : encodeURIComponent(s))).join("/")
  return url.endsWith("/") || encoded.startsWith("/") ? `${url}${encoded}` : `${url}/${encoded}`
}

/** The status a redirect is served with (GitBook's `permanent`: 308 for public traffic, 307 otherwise). */
export const redirectStatus = (redirect: SiteRedirect, publicSite: boolean): 307 | 308 => redirect.permanent && publicSite ? 308 : 307

/** Where a redirect leads: a URL elsewhere, or segments after the site's address. */
export type RedirectTarget =
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "site"; readonly segments: ReadonlyArray<string> }

/**
 * Where a destination leads in a site as its readers see it; undefined when what it names is gone or hidden.
 * `pagePathOf` reads a page's path in the space a site space shows.
 */
export const targetIn = <E, R>(
  shown: ShownTree,
  destination: SiteRedirectDestination,
  pagePathOf: (siteSpace: SiteSpace, pageId: PageId) => Effect.Effect<string | undefined, E, R>
): Effect.Effect<RedirectTarget | undefined, E, R> => {
  const { tree } = shown
  switch (destination.kind) {
    case "external":
      return Effect.succeed({ kind: "url", url: destination.url })
    case "site-section": {
      const section = tree.sections.find((s) => s.id === destination.siteSectionId)
      return Effect.succeed(section === undefined ? undefined : { kind: "site", segments: sectionSegments(tree, section.id) })
    }
    case "site-space":
    case "site-page": {
      const siteSpace = tree.siteSpaces.find((s) => s.id === destination.siteSpaceId)
      if (siteSpace === undefined) return Effect.succeed(undefined)
      const segments = siteSpaceSegments(shown, siteSpace)
      if (destination.kind === "site-space") return Effect.succeed({ kind: "site", segments })
      return Effect.map(
        pagePathOf(siteSpace, destination.pageId),
        (path) => path === undefined ? undefined : { kind: "site", segments: [...segments, ...path.split("/").filter((p) => p !== "")] }
      )
    }
  }
}

// Lists ----------------------------------------------------------------------------------------

/** A list's order (GitBook's `SiteRedirectOrderBy`): newest created or changed first, or by source. */
export const redirectOrder = (orderBy: SiteRedirectOrderBy): "asc" | "desc" => (orderBy === "source" ? "asc" : "desc")

/** A redirect's keyset in a list in that order. */
export const redirectKeyset = (orderBy: SiteRedirectOrderBy) => (r: SiteRedirect): readonly [number | string, string] =>
  orderBy === "source"
    ? [r.source, r.id]
    : orderBy === "updatedAt"
    ? [(r.updatedAt ?? r.createdAt).getTime(), r.id]
    : [r.createdAt.getTime(), r.id]
