import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type OpenedSite, Reader, type ReaderPage, type SiteId, type TrackEvent } from "@octavo/domain"
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { PublicUrl } from "../shared/Handlers.js"
import type { SiteAddress } from "./Pages.js"
import { BrowserPath, pathParams } from "./Paths.js"
import { cookie, message, notFound, readerPolicy, settingCookies, withEtag } from "./Responses.js"

/** Cookies the reader sets: a visitor's share key and token per site, and the ids insights count visitors and sessions by. */
const shareCookie = (siteId: SiteId) => `octavo_share_${siteId}`
const visitorCookie = (siteId: SiteId) => `octavo_visitor_${siteId}`
const VISITOR_ID = "octavo_vid"
const SESSION_ID = "octavo_sid"
const SHARE_COOKIE_SECONDS = 30 * 24 * 3600

/** A cookie's id when it is one the reader made. */
export const idFrom = (value: string | undefined) => (value !== undefined && /^[\w-]{1,64}$/.test(value) ? value : undefined)

/** A published site as this request reaches it, opened for its visitor. */
export interface SiteVisit {
  readonly request: HttpServerRequest.HttpServerRequest
  /** The URL as the browser sent it. */
  readonly url: URL
  readonly site: OpenedSite
  readonly address: SiteAddress
  /** Where absolute URLs point: this server's public URL, or the site's proxy. */
  readonly origin: string
  /** The path's segments after the site's address. */
  readonly rest: ReadonlyArray<string>
  /** The path as the visitor's browser sees it. */
  readonly visiblePath: string
}

/** The answer when the site is not for this visitor: to its sign-in page, a page saying so, or not found. */
const refused = (
  request: HttpServerRequest.HttpServerRequest,
  url: URL,
  error: Effect.Effect.Error<ReturnType<Reader["open"]>>
) => {
  if (error._tag !== "VisitorSignInRequired") return notFound(request)
  const { fallbackURL } = error
  if (fallbackURL !== null && URL.canParse(fallbackURL)) {
    const target = new URL(fallbackURL)
    target.searchParams.set("location", url.pathname)
    return HttpServerResponse.empty({ status: 302, headers: { location: target.toString(), "cache-control": "no-store" } })
  }
  return message(request, 401, "Sign in to read these docs", "This site is only for signed-in visitors.", { "x-robots-tag": "noindex" })
}

/**
 * A route on the site that `:organization` and `:site` name (its organization's hostname or id, its basename or
 * id), opened with the visitor's share key or token (from the URL, else the site's cookies): its answer, or the
 * answer for a visitor the site is not for.
 */
export const onSite = <E, R>(
  route: (visit: SiteVisit) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { segments, url } = yield* BrowserPath
    const keys = yield* pathParams("organization", "site")
    const cookies = request.cookies
    const unsigned = [...url.searchParams].filter(([name]) => name.startsWith("visitor.")).map(([name, value]) =>
      [name.slice("visitor.".length), value] as const
    )
    const opened = yield* Effect.either((yield* Reader).open(keys.organization, keys.site, (siteId) => ({
      shareKey: url.searchParams.get("share") ?? cookies[shareCookie(siteId)],
      visitorToken: url.searchParams.get("jwt_token") ?? cookies[visitorCookie(siteId)],
      unsigned
    })))
    if (opened._tag === "Left") return refused(request, url, opened.left)
    const site = opened.right
    const rest = segments.slice(3)
    // Behind the site's proxy (its `proxy` is `host/path`; the operator's proxy forwards https://host/path/… to this
    // address and says the host in X-Forwarded-Host), links, cookies and absolute URLs use the proxy's address.
    const proxy = site.site.proxy
    const forwardedHost = request.headers["x-forwarded-host"]?.split(",")[0]?.trim().toLowerCase()
    const proxied = proxy !== null && forwardedHost !== undefined && proxy.split("/")[0] === forwardedHost
    const base = proxied
      ? `/${proxy.split("/").slice(1).join("/")}`
      : `/sites/${encodeURIComponent(keys.organization)}/${encodeURIComponent(keys.site)}`
    return yield* route({
      request,
      url,
      site,
      address: { base },
      origin: proxied ? `https://${forwardedHost}` : yield* PublicUrl,
      rest,
      visiblePath: `${base}/${rest.map(encodeURIComponent).join("/")}`
    })
  })

/** What a route that serves a visitor answers with: the site's headers, an ETag, and the visitor's ids. */
export interface Reading extends SiteVisit {
  /** The body for this visitor, or 304 when they hold it already. */
  readonly answer: (body: string, contentType: string) => HttpServerResponse.HttpServerResponse
  /** Headers every answer about this site carries: its policy, how caches keep it, whether robots index it. */
  readonly headers: Record<string, string>
  /** An event for insights about what was served at this path. */
  readonly event: (type: TrackEvent["type"], page?: ReaderPage, extra?: object) => TrackEvent
  readonly absolute: (path: string) => string
}

/** An event the reader records for what it served: who asked (visitor and session ids), where, and which page. */
export const servedEvent = (
  request: HttpServerRequest.HttpServerRequest,
  ids: { readonly visitorId: string; readonly sessionId: string },
  url: string,
  type: TrackEvent["type"],
  page?: ReaderPage,
  extra: object = {}
): TrackEvent => {
  const referrer = request.headers["referer"]
  return {
    type,
    ...extra,
    session: {
      visitorId: ids.visitorId,
      sessionId: ids.sessionId,
      cookies: {},
      userAgent: (request.headers["user-agent"] ?? "").slice(0, 1024),
      language: request.headers["accept-language"]?.split(",")[0]?.trim().slice(0, 64) || null,
      referrer: referrer !== undefined && /^https?:\/\//.test(referrer) && referrer.length <= 2048 ? referrer : null
    },
    location: {
      url: url.slice(0, 2048),
      siteSection: page?.section?.id ?? null,
      siteSpace: page?.siteSpace.id ?? null,
      siteShareKey: null,
      space: page?.space.id ?? null,
      revision: page?.revisionId ?? null,
      page: page?.node.page.id ?? null
    }
  } as TrackEvent
}

/** A key or a token in the URL moves into the site's cookie, and the URL is given back without it. */
const movedToCookies = (visit: SiteVisit) => {
  const { address, site, url, visiblePath } = visit
  const shareParam = url.searchParams.get("share") ?? undefined
  const tokenParam = url.searchParams.get("jwt_token") ?? undefined
  if (shareParam === undefined && tokenParam === undefined) return undefined
  const clean = new URL(url)
  clean.searchParams.delete("share")
  clean.searchParams.delete("jwt_token")
  const setCookies: Array<string> = []
  if (shareParam !== undefined && site.shareKey !== undefined) {
    setCookies.push(cookie(shareCookie(site.site.id), site.shareKey, { path: address.base, maxAge: SHARE_COOKIE_SECONDS }))
  }
  if (tokenParam !== undefined && site.authenticated) {
    const lasts = site.tokenExpires === undefined ? undefined : site.tokenExpires - Date.now() / 1000
    setCookies.push(cookie(visitorCookie(site.site.id), tokenParam, { path: address.base, maxAge: lasts }))
  }
  const response = HttpServerResponse.empty({
    status: 302,
    headers: { location: `${visiblePath}${clean.search}`, "cache-control": "no-store" }
  })
  return HttpServerResponse.setHeader(response, "set-cookie", setCookies as never)
}

/** The headers of every answer about a site, by its visibility and whether it has a proxy. */
const siteHeaders = ({ site }: SiteVisit): Record<string, string> => {
  const { proxy, visibility } = site.site
  const personal = visibility === "share-link" || visibility === "visitor-auth" || site.claims !== null
  return {
    "content-security-policy": readerPolicy,
    "cache-control": personal ? "private, no-cache" : "public, no-cache",
    ...(visibility !== "public" ? { "x-robots-tag": "noindex" } : {}),
    ...(visibility === "share-link" ? { "referrer-policy": "no-referrer" } : {}),
    // A page reads differently behind the site's proxy: caches keep the two apart.
    ...(proxy === null ? {} : { vary: "X-Forwarded-Host" })
  }
}

/** The visitor's and the session's ids, made on the first visit (with the cookies that keep them), for insights. */
const visitorIds = (request: HttpServerRequest.HttpServerRequest) => {
  const visitorId = idFrom(request.cookies[VISITOR_ID])
  const sessionId = idFrom(request.cookies[SESSION_ID])
  const ids = { visitorId: visitorId ?? randomUUID(), sessionId: sessionId ?? randomUUID() }
  const cookies = [
    ...(visitorId === undefined ? [cookie(VISITOR_ID, ids.visitorId, { path: "/sites", maxAge: 365 * 24 * 3600 })] : []),
    ...(sessionId === undefined ? [cookie(SESSION_ID, ids.sessionId, { path: "/sites" })] : [])
  ]
  return { ids, cookies }
}

/** Programs keep no cookies: one without the reader's is a visitor and a session of its own. */
export const programIds = (request: HttpServerRequest.HttpServerRequest) => {
  const id = idFrom(request.cookies[VISITOR_ID]) ?? randomUUID()
  return { visitorId: id, sessionId: id }
}

/** A route that serves the site to a visitor: after a key or token in the URL has moved into its cookie. */
export const forVisitor = <E, R>(
  route: (reading: Reading) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  onSite((visit) => {
    const moved = movedToCookies(visit)
    if (moved !== undefined) return Effect.succeed(moved)
    const { request, origin, visiblePath } = visit
    const headers = siteHeaders(visit)
    const { cookies, ids } = visitorIds(request)
    return route({
      ...visit,
      headers,
      answer: (body, contentType) => settingCookies(withEtag(request, body, contentType, headers), cookies),
      event: (type, page, extra) => servedEvent(request, ids, `${origin}${visiblePath}`, type, page, extra),
      absolute: (path) => `${origin}${path}`
    })
  })
