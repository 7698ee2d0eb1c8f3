import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  Reader,
  type ReaderPage,
  type SiteId,
  type SpaceId,
  type TrackEvent
} from "@octavo/domain"
import { createHash, randomUUID } from "node:crypto"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { Effect } from "effect"
import { PublicUrl } from "../shared/Handlers.js"
import { type Html, html } from "./Html.js"
import { segmentsOf } from "./Paths.js"
import {
  everyPage,
  markdownOf,
  messageDocument,
  pageDocument,
  pageHref,
  scriptName,
  searchDocument,
  type SiteAddress,
  styleName
} from "./Pages.js"
import { READER_CSS } from "./Style.js"
import { READER_JS } from "./Script.js"

/** Cookies the reader sets: a visitor's share key and token per site, and the ids insights count visitors and sessions by. */
const shareCookie = (siteId: SiteId) => `octavo_share_${siteId}`
const visitorCookie = (siteId: SiteId) => `octavo_visitor_${siteId}`
const VISITOR_ID = "octavo_vid"
const SESSION_ID = "octavo_sid"
const SHARE_COOKIE_SECONDS = 30 * 24 * 3600

/** Pages are plain HTML with one style sheet and one script of this server's; nothing else loads. */
const readerPolicy = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

const cookie = (name: string, value: string, options: { readonly path: string; readonly maxAge?: number | undefined }) =>
  [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path}`,
    ...(options.maxAge === undefined ? [] : [`Max-Age=${Math.max(0, Math.floor(options.maxAge))}`]),
    "HttpOnly",
    "SameSite=Lax"
  ].join("; ")

/** The body, compressed when the client takes brotli or gzip and it is worth it. */
const compressed = (
  request: HttpServerRequest.HttpServerRequest,
  body: string,
  contentType: string,
  headers: Record<string, string>,
  status = 200
) => {
  const bytes = Buffer.from(body, "utf8")
  const accepted = request.headers["accept-encoding"] ?? ""
  const vary = { vary: headers["vary"] === undefined ? "Accept-Encoding" : `Accept-Encoding, ${headers["vary"]}` }
  if (bytes.length < 1024) return HttpServerResponse.uint8Array(bytes, { status, contentType, headers: { ...headers, ...vary } })
  if (/\bbr\b/.test(accepted)) {
    const packed = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
    return HttpServerResponse.uint8Array(packed, { status, contentType, headers: { ...headers, ...vary, "content-encoding": "br" } })
  }
  if (/\bgzip\b/.test(accepted)) {
    return HttpServerResponse.uint8Array(gzipSync(bytes), {
      status,
      contentType,
      headers: { ...headers, ...vary, "content-encoding": "gzip" }
    })
  }
  return HttpServerResponse.uint8Array(bytes, { status, contentType, headers: { ...headers, ...vary } })
}

const HTML = "text/html; charset=utf-8"

/** The style sheet or the script: named by their content's hash, so kept for a year. */
const asset = (text: string, contentType: string) =>
  HttpServerResponse.text(text, { contentType, headers: { "cache-control": "public, max-age=31536000, immutable" } })

const message = (
  request: HttpServerRequest.HttpServerRequest,
  status: number,
  title: string,
  text: string,
  extra: Record<string, string> = {}
) =>
  compressed(request, messageDocument(title, text).text, HTML, {
    "content-security-policy": readerPolicy,
    "cache-control": "no-store",
    ...extra
  }, status)

const notFound = (request: HttpServerRequest.HttpServerRequest) =>
  message(request, 404, "Page not found", "There is no page at this address.", { "x-robots-tag": "noindex" })

const etagOf = (body: string) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`

/** An event the reader records for what it served: who asked (visitor and session ids), where, and which page. */
const servedEvent = (
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

/** A cookie's id when it is one the reader made. */
const idFrom = (value: string | undefined) => (value !== undefined && /^[\w-]{1,64}$/.test(value) ? value : undefined)

/**
 * Published sites in a browser (issue 20): `/sites/{organization hostname or id}/{basename or site id}/…`,
 * server-rendered from the domain's reader, with the visibility rules of conventions-2.md §1.3.
 */
const handle = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const reader = yield* Reader
  const publicUrl = yield* PublicUrl
  const url = new URL(request.url, "http://localhost")
  const segments = segmentsOf(url.pathname)
  if (segments === undefined || segments[0] !== "sites") return notFound(request)
  const [, organizationKey, siteKey, ...rest] = segments
  // The style sheet and script, under /sites/~assets or a site's address: they are the same for every site.
  const assetName = organizationKey === "~assets" ? siteKey : rest[0] === "~assets" && rest.length === 2 ? rest[1] : undefined
  if (assetName !== undefined || organizationKey === "~assets") {
    if (assetName === styleName) return asset(READER_CSS, "text/css; charset=utf-8")
    if (assetName === scriptName) return asset(READER_JS, "text/javascript; charset=utf-8")
    return notFound(request)
  }
  if (organizationKey === undefined || siteKey === undefined) return notFound(request)
  const cookies = request.cookies
  const shareParam = url.searchParams.get("share") ?? undefined
  const tokenParam = url.searchParams.get("jwt_token") ?? undefined

  const unsigned = [...url.searchParams].filter(([name]) => name.startsWith("visitor.")).map(([name, value]) =>
    [name.slice("visitor.".length), value] as const
  )
  const opened = yield* reader.open(organizationKey, siteKey, (siteId) => ({
    shareKey: shareParam ?? cookies[shareCookie(siteId)],
    visitorToken: tokenParam ?? cookies[visitorCookie(siteId)],
    unsigned
  })).pipe(Effect.either)
  if (opened._tag === "Left") {
    const error = opened.left
    if (error._tag === "VisitorSignInRequired") {
      if (error.fallbackURL !== null && URL.canParse(error.fallbackURL)) {
        const target = new URL(error.fallbackURL)
        target.searchParams.set("location", url.pathname)
        return HttpServerResponse.empty({ status: 302, headers: { location: target.toString(), "cache-control": "no-store" } })
      }
      return message(request, 401, "Sign in to read these docs", "This site is only for signed-in visitors.", { "x-robots-tag": "noindex" })
    }
    return notFound(request)
  }
  const site = opened.right
  const only = rest.length === 1 ? rest[0] : undefined
  // Behind the site's proxy (its `proxy` is `host/path`; the operator's proxy forwards https://host/path/… to this
  // address and says the host in X-Forwarded-Host), links, cookies and absolute URLs use the proxy's address.
  const proxy = site.site.proxy
  const forwardedHost = request.headers["x-forwarded-host"]?.split(",")[0]?.trim().toLowerCase()
  const proxied = proxy !== null && forwardedHost !== undefined && proxy.split("/")[0] === forwardedHost
  const base = proxied
    ? `/${proxy.split("/").slice(1).join("/")}`
    : `/sites/${encodeURIComponent(organizationKey)}/${encodeURIComponent(siteKey)}`
  const origin = proxied ? `https://${forwardedHost}` : publicUrl
  const address: SiteAddress = { base }
  // The path as the visitor's browser sees it.
  const visiblePath = `${base}/${rest.map(encodeURIComponent).join("/")}`

  // Programs speak MCP at …/~mcp (POST only: answers are JSON, not streams); every other POST is for nothing here.
  if (only === "~mcp" || request.method === "POST") {
    if (only !== "~mcp") return notFound(request)
    if (request.method !== "POST") {
      return HttpServerResponse.text("The MCP endpoint takes POST requests.", { status: 405, headers: { allow: "POST" } })
    }
    const body = yield* Effect.orElseSucceed(request.text, () => "")
    const headers = new Headers()
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value)
    // The MCP SDK and its schema library weigh some 20 MiB once loaded: a server loads them when a client first asks.
    const { answerMcp } = yield* Effect.promise(() => import("./Mcp.js"))
    const answered = yield* answerMcp(
      site,
      address,
      (path) => `${origin}${path}`,
      new Request(`${publicUrl}${url.pathname}`, {
        method: "POST",
        headers,
        body
      })
    )
    // Programs keep no cookies: a request without the reader's is a visitor and a session of its own.
    const id = idFrom(cookies[VISITOR_ID]) ?? randomUUID()
    yield* reader.record(site, [servedEvent(request, { visitorId: id, sessionId: id }, `${origin}${visiblePath}`, "mcp_request")])
    const replyHeaders: Record<string, string> = {}
    answered.headers.forEach((value, name) => {
      replyHeaders[name] = value
    })
    return HttpServerResponse.text(yield* Effect.promise(() => answered.text()), {
      status: answered.status,
      headers: { ...replyHeaders, "cache-control": "no-store", ...(site.site.visibility === "public" ? {} : { "x-robots-tag": "noindex" }) }
    })
  }

  // A key or a token in the URL is moved into the site's cookie, and the URL is given back without it.
  if (shareParam !== undefined || tokenParam !== undefined) {
    const clean = new URL(url)
    clean.searchParams.delete("share")
    clean.searchParams.delete("jwt_token")
    const setCookies: Array<string> = []
    if (shareParam !== undefined && site.shareKey !== undefined) {
      setCookies.push(cookie(shareCookie(site.site.id), site.shareKey, { path: base, maxAge: SHARE_COOKIE_SECONDS }))
    }
    if (tokenParam !== undefined && site.authenticated) {
      const lasts = site.tokenExpires === undefined ? undefined : site.tokenExpires - Date.now() / 1000
      setCookies.push(cookie(visitorCookie(site.site.id), tokenParam, { path: base, maxAge: lasts }))
    }
    const location = `${visiblePath}${clean.search}`
    const response = HttpServerResponse.empty({ status: 302, headers: { location, "cache-control": "no-store" } })
    return yield* HttpServerResponse.setHeader(response, "set-cookie", setCookies as never).pipe(Effect.succeed)
  }

  const visibility = site.site.visibility
  const restricted = visibility !== "public"
  const personal = visibility === "share-link" || visibility === "visitor-auth" || site.claims !== null
  const common: Record<string, string> = {
    "content-security-policy": readerPolicy,
    "cache-control": personal ? "private, no-cache" : "public, no-cache",
    ...(restricted ? { "x-robots-tag": "noindex" } : {}),
    ...(visibility === "share-link" ? { "referrer-policy": "no-referrer" } : {}),
    // A page reads differently behind the site's proxy: caches keep the two apart.
    ...(proxy === null ? {} : { vary: "X-Forwarded-Host" })
  }

  // The visitor's and the session's ids, made on the first visit, for insights.
  const visitorId = idFrom(cookies[VISITOR_ID])
  const sessionId = idFrom(cookies[SESSION_ID])
  const ids = { visitorId: visitorId ?? randomUUID(), sessionId: sessionId ?? randomUUID() }
  const idCookies = [
    ...(visitorId === undefined ? [cookie(VISITOR_ID, ids.visitorId, { path: "/sites", maxAge: 365 * 24 * 3600 })] : []),
    ...(sessionId === undefined ? [cookie(SESSION_ID, ids.sessionId, { path: "/sites" })] : [])
  ]
  const event = (type: TrackEvent["type"], page?: ReaderPage, extra: object = {}) =>
    servedEvent(request, ids, `${origin}${visiblePath}`, type, page, extra)

  const answer = (body: string, contentType: string, extra: Record<string, string> = {}) => {
    const etag = etagOf(body)
    const headers = { ...common, etag, ...extra }
    const response = request.headers["if-none-match"] === etag
      ? HttpServerResponse.empty({ status: 304, headers })
      : compressed(request, body, contentType, headers)
    return idCookies.length === 0 ? response : HttpServerResponse.setHeader(response, "set-cookie", idCookies as never)
  }

  const absolute = (path: string) => `${origin}${path}`

  if (only === "robots.txt") {
    const body = visibility === "public"
      ? `User-agent: *\nAllow: /\nSitemap: ${absolute(`${base}/sitemap.xml`)}\n`
      : "User-agent: *\nDisallow: /\n"
    return answer(body, "text/plain; charset=utf-8")
  }
  if (only === "sitemap.xml") {
    if (visibility !== "public") return notFound(request)
    const pages = everyPage(yield* reader.everySpace(site)).filter(({ node }) => !node.page.noIndex && !node.page.noRobotsIndex)
    const body = html`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${
      pages.map(({ node, space }) =>
        html`<url><loc>${
          absolute(pageHref(address, space, node.path))
        }</loc><lastmod>${node.page.updatedAt.toISOString()}</lastmod></url>\n`
      )
    }</urlset>
`
    return answer(body.text, "application/xml; charset=utf-8")
  }
  if (only === "llms.txt" || only === "llms-full.txt") {
    const spaces = yield* reader.everySpace(site)
    const pages = everyPage(spaces)
    const full = only === "llms-full.txt"
    const body = full
      ? pages.map(({ node }) => markdownOf(node)).join("\n---\n\n")
      : `# ${site.site.title}\n\n` +
        spaces.map((space) => {
          const list = pages.filter((p) => p.space === space).map(({ node }) =>
            `- [${node.page.title}](${absolute(`${pageHref(address, space, node.path)}.md`)})${
              node.page.description === undefined ? "" : `: ${node.page.description}`
            }`
          )
          return `## ${space.space.title}\n\n${list.join("\n")}\n`
        }).join("\n")
    yield* reader.record(site, [event("llms_request", undefined, { llmsVariant: full ? "full" : "standard" })])
    return answer(body, "text/plain; charset=utf-8")
  }
  if (only === "~search.json") {
    // The search box's suggestions while typing (the reader's script): the same search, as JSON.
    const query = (url.searchParams.get("q") ?? "").trim()
    const found = query === "" ? [] : yield* reader.search(site, query).pipe(Effect.orElseSucceed(() => []))
    if (query !== "") yield* reader.record(site, [event("search_type_query", undefined, { query: query.slice(0, 512) })])
    const results = found.slice(0, 8).map((result) => {
      const href = pageHref(address, result.space, result.node.path)
      return {
        title: result.node.page.title,
        url: href,
        sections: result.sections.filter((section) => section.anchor !== "").slice(0, 3).map((section) => ({
          title: section.title,
          url: `${href}#${section.anchor}`
        }))
      }
    })
    return answer(JSON.stringify({ query, results }), "application/json")
  }
  if (only === "~search") {
    const query = (url.searchParams.get("q") ?? "").trim()
    const found = query === "" ? [] : yield* reader.search(site, query).pipe(
      Effect.catchTag("InvalidInput", (error) => Effect.succeed(`The search could not be run: ${error.message}.`))
    )
    if (query !== "" && typeof found !== "string") {
      yield* reader.record(site, [event("search_type_query", undefined, { query: query.slice(0, 512) })])
    }
    return answer(searchDocument(site, address, query, found).text, HTML)
  }
  if (rest[0] === "~files" && rest.length === 3) {
    const found = yield* reader.file(site, rest[1] as SpaceId, rest[2] as never).pipe(Effect.either)
    if (found._tag === "Left") return notFound(request)
    const { bytes, file } = found.right
    const safe = /^(image\/(png|jpeg|gif|webp|avif)|application\/pdf|text\/plain)$/.test(file.contentType)
    return HttpServerResponse.uint8Array(bytes, {
      contentType: safe ? file.contentType : "application/octet-stream",
      headers: {
        ...common,
        "content-security-policy": "default-src 'none'; sandbox",
        ...(safe ? {} : { "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}` })
      }
    })
  }

  // A page, or its markdown.
  const last = rest[rest.length - 1]
  const asMarkdown = last !== undefined && last.endsWith(".md")
  const pagePath = asMarkdown ? [...rest.slice(0, -1), last.slice(0, -3)] : rest
  const found = yield* reader.page(site, pagePath).pipe(Effect.either)
  if (found._tag === "Left") return notFound(request)
  const page = found.right
  if (asMarkdown) {
    yield* reader.record(site, [event("page_markdown_request", page)])
    return answer(markdownOf(page.node), "text/markdown; charset=utf-8")
  }
  const body: Html = pageDocument(site, address, page)
  yield* reader.record(site, [event("page_view", page)])
  return answer(body.text, HTML)
})

const handler = Effect.catchAllCause(handle, (cause) =>
  Effect.zipRight(
    Effect.logError("The reader failed", cause),
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.succeed(message(request, 500, "Something went wrong", "This page could not be shown. Try again in a moment.")))
  ))

/** The reader's routes beside the API. */
export const ReaderRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const services = yield* Effect.context<Reader | PublicUrl>()
    const served = Effect.provide(handler, services)
    yield* router.get("/sites/*", served)
    yield* router.head("/sites/*", served)
    yield* router.post("/sites/*", served)
  })
)
