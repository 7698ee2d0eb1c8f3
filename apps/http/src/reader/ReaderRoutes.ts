import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Reader, type SpaceId } from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { PublicUrl } from "../shared/Handlers.js"
import { html } from "./Html.js"
import { everyPage, markdownOf, pageDocument, pageHref, scriptName, searchDocument, styleName } from "./Pages.js"
import { pathParams, routeDecoded } from "./Paths.js"
import { RenderedPages } from "./RenderedPages.js"
import { HTML, message, notFound } from "./Responses.js"
import { READER_JS } from "./Script.js"
import { READER_CSS } from "./Style.js"
import { forVisitor, onSite, programIds, type Reading, servedEvent, type SiteVisit } from "./Visit.js"

/** The style sheet or the script: named by their content's hash, so kept for a year; the same for every site. */
const asset = Effect.gen(function*() {
  const { name } = yield* pathParams("name")
  const text = name === styleName ? READER_CSS : name === scriptName ? READER_JS : undefined
  if (text === undefined) return notFound(yield* HttpServerRequest.HttpServerRequest)
  const contentType = name === styleName ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
  return HttpServerResponse.text(text, { contentType, headers: { "cache-control": "public, max-age=31536000, immutable" } })
})

/** Programs speak MCP at …/~mcp (POST only: answers are JSON, not streams). */
const mcp = ({ address, origin, request, site, url, visiblePath }: SiteVisit) =>
  Effect.gen(function*() {
    const publicUrl = yield* PublicUrl
    const body = yield* Effect.orElseSucceed(request.text, () => "")
    const headers = new Headers()
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value)
    // The MCP SDK and its schema library weigh some 20 MiB once loaded: a server loads them when a client first asks.
    const { answerMcp } = yield* Effect.promise(() => import("./Mcp.js"))
    const answered = yield* answerMcp(
      site,
      address,
      (path) => `${origin}${path}`,
      new Request(`${publicUrl}${url.pathname}`, { method: "POST", headers, body })
    )
    const event = servedEvent(request, programIds(request), `${origin}${visiblePath}`, "mcp_request")
    yield* (yield* Reader).record(site, [event])
    const replyHeaders: Record<string, string> = {}
    answered.headers.forEach((value, name) => {
      replyHeaders[name] = value
    })
    return HttpServerResponse.text(yield* Effect.promise(() => answered.text()), {
      status: answered.status,
      headers: { ...replyHeaders, "cache-control": "no-store", ...(site.site.visibility === "public" ? {} : { "x-robots-tag": "noindex" }) }
    })
  })

const mcpTakesPost = () =>
  Effect.succeed(HttpServerResponse.text("The MCP endpoint takes POST requests.", { status: 405, headers: { allow: "POST" } }))

/** Every other POST is for nothing here. */
const nothingToPost = ({ request }: SiteVisit) => Effect.succeed(notFound(request))

const robots = ({ absolute, address, answer, site }: Reading) =>
  Effect.succeed(answer(
    site.site.visibility === "public"
      ? `User-agent: *\nAllow: /\nSitemap: ${absolute(`${address.base}/sitemap.xml`)}\n`
      : "User-agent: *\nDisallow: /\n",
    "text/plain; charset=utf-8"
  ))

/** The pages robots may index, for a public site. */
const sitemap = ({ absolute, address, answer, request, site }: Reading) =>
  Effect.gen(function*() {
    if (site.site.visibility !== "public") return notFound(request)
    const pages = everyPage(yield* (yield* Reader).everySpace(site)).filter(({ node }) => !node.page.noIndex && !node.page.noRobotsIndex)
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
  })

/** llms.txt (the pages' list, linking their markdown) or llms-full.txt (every page's markdown). */
const llms = (variant: "standard" | "full") => ({ absolute, address, answer, event, site }: Reading) =>
  Effect.gen(function*() {
    const reader = yield* Reader
    const spaces = yield* reader.everySpace(site)
    const pages = everyPage(spaces)
    const body = variant === "full"
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
    yield* reader.record(site, [event("llms_request", undefined, { llmsVariant: variant })])
    return answer(body, "text/plain; charset=utf-8")
  })

const queryOf = (url: URL) => (url.searchParams.get("q") ?? "").trim()

/** The search box's suggestions while typing (the reader's script): the same search, as JSON. */
const searchSuggestions = ({ address, answer, event, site, url }: Reading) =>
  Effect.gen(function*() {
    const reader = yield* Reader
    const query = queryOf(url)
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
  })

/** The search box's answer, as a page. */
const search = ({ address, answer, event, site, url }: Reading) =>
  Effect.gen(function*() {
    const reader = yield* Reader
    const query = queryOf(url)
    const found = query === "" ? [] : yield* reader.search(site, query).pipe(
      Effect.catchTag("InvalidInput", (error) => Effect.succeed(`The search could not be run: ${error.message}.`))
    )
    if (query !== "" && typeof found !== "string") {
      yield* reader.record(site, [event("search_type_query", undefined, { query: query.slice(0, 512) })])
    }
    return answer(searchDocument(site, address, query, found).text, HTML)
  })

/** A file a page shows or links: shown inline only when a browser cannot run it. */
const file = ({ headers, request, site }: Reading) =>
  Effect.gen(function*() {
    const { fileId, spaceId } = yield* pathParams("spaceId", "fileId")
    const found = yield* (yield* Reader).file(site, spaceId as SpaceId, fileId as never).pipe(Effect.either)
    if (found._tag === "Left") return notFound(request)
    const { bytes, file } = found.right
    const safe = /^(image\/(png|jpeg|gif|webp|avif)|application\/pdf|text\/plain)$/.test(file.contentType)
    return HttpServerResponse.uint8Array(bytes, {
      contentType: safe ? file.contentType : "application/octet-stream",
      headers: {
        ...headers,
        "content-security-policy": "default-src 'none'; sandbox",
        ...(safe ? {} : { "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}` })
      }
    })
  })

/**
 * A page, or its markdown (its path and `.md`). Its path is the URL's segments after the site's address (the
 * wildcard's text would read an escaped slash in a segment as a separator).
 */
const page = ({ address, answer, event, headers, request, rest, site }: Reading) =>
  Effect.gen(function*() {
    const reader = yield* Reader
    const last = rest[rest.length - 1]
    const asMarkdown = last !== undefined && last.endsWith(".md")
    const found = yield* reader.page(site, asMarkdown ? [...rest.slice(0, -1), last.slice(0, -3)] : rest).pipe(Effect.either)
    if (found._tag === "Left") {
      // No page here: a redirect's target, else not found (issue 39).
      const moved = yield* reader.redirect(site, rest)
      return Option.match(moved, {
        onNone: () => notFound(request),
        onSome: ({ status, target }) => {
          const location = target.kind === "url"
            ? target.url
            : [address.base, ...target.segments.map(encodeURIComponent)].join("/")
          return HttpServerResponse.empty({ status, headers: { ...headers, location } })
        }
      })
    }
    const page = found.right
    if (asMarkdown) {
      yield* reader.record(site, [event("page_markdown_request", page)])
      return answer(markdownOf(page.node), "text/markdown; charset=utf-8")
    }
    const body = pageDocument(site, address, page, yield* RenderedPages)
    yield* reader.record(site, [event("page_view", page)])
    return answer(body.text, HTML)
  })

/** A site's address: `/sites/{organization hostname or id}/{basename or site id}`. */
const SITE = "/sites/:organization/:site"

/**
 * Published sites in a browser (issue 20), server-rendered from the domain's reader, with the visibility
 * rules of conventions-2.md §1.3. Static segments come before a site's pages: a page cannot be named so.
 */
const siteRoutes = HttpRouter.empty.pipe(
  // The style sheet and script, whatever the method, under /sites/~assets and every site's address (what a proxy forwards).
  HttpRouter.all("/sites/~assets/:name", asset),
  HttpRouter.all(`${SITE}/~assets/:name`, asset),
  HttpRouter.post(`${SITE}/~mcp`, onSite(mcp)),
  HttpRouter.get(`${SITE}/~mcp`, onSite(mcpTakesPost)),
  HttpRouter.post(SITE, onSite(nothingToPost)),
  HttpRouter.post(`${SITE}/*`, onSite(nothingToPost)),
  HttpRouter.get(`${SITE}/robots.txt`, forVisitor(robots)),
  HttpRouter.get(`${SITE}/sitemap.xml`, forVisitor(sitemap)),
  HttpRouter.get(`${SITE}/llms.txt`, forVisitor(llms("standard"))),
  HttpRouter.get(`${SITE}/llms-full.txt`, forVisitor(llms("full"))),
  HttpRouter.get(`${SITE}/~search.json`, forVisitor(searchSuggestions)),
  HttpRouter.get(`${SITE}/~search`, forVisitor(search)),
  HttpRouter.get(`${SITE}/~files/:spaceId/:fileId`, forVisitor(file)),
  HttpRouter.get(SITE, forVisitor(page)),
  HttpRouter.get(`${SITE}/*`, forVisitor(page))
)

const failed = (cause: unknown) =>
  Effect.zipRight(
    Effect.logError("The reader failed", cause),
    Effect.map(
      HttpServerRequest.HttpServerRequest,
      (request) => message(request, 500, "Something went wrong", "This page could not be shown. Try again in a moment.")
    )
  )

/** The reader's routes beside the API, every path under /sites on the reader's own router. */
export const ReaderRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const services = yield* Effect.context<Reader | PublicUrl | RenderedPages>()
    const notFoundHere = Effect.map(HttpServerRequest.HttpServerRequest, notFound)
    const sites = yield* routeDecoded(siteRoutes, { invalid: notFoundHere, unrouted: notFoundHere })
    const served = sites.pipe(Effect.catchAllCause(failed), Effect.provide(services))
    yield* router.get("/sites/*", served)
    yield* router.head("/sites/*", served)
    yield* router.post("/sites/*", served)
  })
).pipe(Layer.provide(RenderedPages.layer))
