import {
  type Localized,
  localizedOr,
  type OpenedSite,
  type PageNode,
  type ReaderLink,
  type ReaderPage,
  type ReaderSearchResult,
  type ReaderSpace,
  sectionTabs,
  siteSpacesIn
} from "@octavo/domain"
import { type OutlineHeading, renderHtml } from "@octavo/markdown"
import { type Html, html, trusted } from "./Html.js"
import type { RenderedPages } from "./RenderedPages.js"
import { READER_CSS_HASH } from "./Style.js"

/** Where things of an opened site live, as absolute paths of this server. */
export interface SiteAddress {
  /** `/sites/{org}/{site}`, without a trailing slash. */
  readonly base: string
}

/** The style sheet's and the script's names: their content's hash makes them cacheable for good. */
export const styleName = `reader-${READER_CSS_HASH}.css`
export const scriptName = `reader-${READER_CSS_HASH}.js`
/** Where they are served: under /sites/~assets, and under every site's address (what a proxy forwards). */
const ASSETS = "/sites/~assets"

const join = (...parts: ReadonlyArray<string>) => parts.filter((p) => p !== "").join("/")

/** A page's path on the site: its site space's address, then the page's own path. */
export const pageHref = (address: SiteAddress, space: ReaderSpace, pagePath: string) => `${address.base}/${join(space.address, pagePath)}`

export const fileHref = (address: SiteAddress, space: ReaderSpace, fileId: string) => `${address.base}/~files/${space.space.id}/${fileId}`

/** Where a reader link goes, as an href; undefined for one that leads nowhere (shown as plain text). */
export const hrefOf = (address: SiteAddress, space: ReaderSpace, link: ReaderLink): string | undefined => {
  switch (link.kind) {
    case "external":
      return link.url
    case "page":
      return pageHref(address, space, link.path) + (link.anchor === undefined ? "" : `#${encodeURIComponent(link.anchor)}`)
    case "file":
      return fileHref(address, space, link.file.id)
    case "nowhere":
      return undefined
  }
}

/** A whole HTML document around a body, with the reader's style sheet and script. */
export const document = (input: {
  readonly title: string
  readonly description?: string | undefined
  readonly markdownHref?: string | undefined
  /** The language of the page's content (its space's), English unless it says. */
  readonly language?: string | undefined
  readonly body: Html
  /** The folder of the style sheet and script; /sites/~assets unless a site's address is known. */
  readonly assets?: string | undefined
}) =>
  html`<!doctype html>
<html lang="${input.language ?? "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title}</title>
<link rel="icon" href="data:,">
${input.description === undefined || input.description === "" ? "" : html`<meta name="description" content="${input.description}">`}
<link rel="stylesheet" href="${input.assets ?? ASSETS}/${styleName}">
${input.markdownHref === undefined ? "" : html`<link rel="alternate" type="text/markdown" href="${input.markdownHref}">`}
<script src="${input.assets ?? ASSETS}/${scriptName}" defer></script>
</head>
<body>
${input.body}
</body>
</html>
`

/**
 * The language a site's page is read in: its space's. Sections', groups' and spaces' titles are shown in it when
 * they have it (GitBook's localized titles); the site's default space's when no space is open.
 */
const languageOf = (opened: OpenedSite, current: ReaderSpace | undefined) => {
  const { tree } = opened.shown
  const section = tree.sections.find((s) => s.id === tree.site.defaultSectionId)
  const siteSpaceId = current?.siteSpace.id ?? section?.defaultSiteSpaceId ?? tree.site.defaultSiteSpaceId
  const spaceId = current?.siteSpace.spaceId ?? tree.siteSpaces.find((s) => s.id === siteSpaceId)?.spaceId
  return spaceId === undefined ? undefined : opened.spaces.get(spaceId)?.language
}

const header = (opened: OpenedSite, address: SiteAddress, current: ReaderSpace | undefined, query = "") => {
  const tabs = sectionTabs(opened.shown)
  const language = languageOf(opened, current)
  const titleOf = (item: { readonly title: string; readonly localizedTitle: Localized }) =>
    localizedOr(item.title, item.localizedTitle, language)
  const currentSection = current?.section?.id
  const sectionHref = (id: string) => {
    const first = siteSpacesIn(opened.shown.tree, id as never).find((s) => opened.shown.defaults.has(s.id))
    const section = opened.shown.tree.sections.find((s) => s.id === id)!
    const isDefault = section.id === opened.shown.tree.site.defaultSectionId
    return first === undefined ? address.base : `${address.base}/${isDefault ? "" : section.path}`
  }
  const sectionLink = (id: string, title: string) =>
    html`<li><a href="${sectionHref(id)}"${currentSection === id ? html` aria-current="true"` : ""}>${title}</a></li>`
  return html`<a class="skip" href="#content">Skip to content</a>
<header class="site-header">
<a class="site-title" href="${address.base}/">${opened.site.title}</a>
${
    tabs.length === 0 ? "" : html`<nav class="sections" aria-label="Sections"><ul>${
      tabs.map((tab) =>
        tab.kind === "section"
          ? sectionLink(tab.section.id, titleOf(tab.section))
          : html`<li><details><summary>${titleOf(tab.group)}</summary><ul>${
            tab.sections.map((s) => sectionLink(s.id, titleOf(s)))
          }</ul></details></li>`
      )
    }</ul></nav>`
  }
<form class="search" role="search" action="${address.base}/~search" method="get">
<label for="q" class="skip">Search the docs</label>
<input id="q" name="q" type="search" placeholder="Search…" value="${query}" autocomplete="off">
<button type="submit">Search</button>
</form>
</header>`
}

/**
 * The sidebar: groups always open; a page's children only along the way to the current page (and under
 * it), so that a space of thousands of pages sends its top levels and the current branch, not all of them.
 */
const tree = (address: SiteAddress, space: ReaderPage, nodes: ReadonlyArray<PageNode>, current: PageNode | undefined): Html =>
  html`<ul>${
    nodes.map((node) => {
      const open = node.page.kind === "group" || (current !== undefined &&
        (current.path === node.path || current.path.startsWith(`${node.path}/`)))
      const children = node.pages.length === 0 || !open ? "" : tree(address, space, node.pages, current)
      switch (node.page.kind) {
        case "group":
          return html`<li><p class="group">${node.page.title}</p>${children}</li>`
        case "link":
          // A link page's target may be a page of the space (`/pages/<id>#anchor`): it resolves as a link written in a page.
          return html`<li><a href="${hrefOf(address, space, space.link(node.page.href ?? "")) ?? "#"}">${node.page.title}</a></li>`
        default:
          return html`<li><a href="${pageHref(address, space, node.path)}"${
            node.page.id === current?.page.id ? html` aria-current="page"` : ""
          }${node.pages.length > 0 && !open ? html` class="more"` : ""}>${node.page.emoji === undefined ? "" : `${node.page.emoji} `}${
            node.page.navigationLabel ?? node.page.title
          }</a>${children}</li>`
      }
    })
  }</ul>`

/** The spaces of the open one's scope a reader may switch to: hidden ones are left out, unless open. */
const spaceSwitcher = (opened: OpenedSite, address: SiteAddress, space: ReaderSpace) => {
  const siblings = siteSpacesIn(opened.shown.tree, space.siteSpace.sectionId).filter((s) => !s.hidden || s.id === space.siteSpace.id)
  if (siblings.length < 2) return ""
  const language = languageOf(opened, space)
  return html`<nav class="spaces" aria-label="Spaces"><ul>${
    siblings.map((s) => {
      const title = localizedOr(opened.spaces.get(s.spaceId)?.title ?? s.path, s.localizedTitle, language)
      const href = `${address.base}/${join(...siteSpaceSegmentsOf(opened, s))}`
      return html`<li><a href="${href}"${s.id === space.siteSpace.id ? html` aria-current="page"` : ""}>${title}</a></li>`
    })
  }</ul></nav>`
}

const siteSpaceSegmentsOf = (opened: OpenedSite, siteSpace: ReaderSpace["siteSpace"]) => {
  const { tree } = opened.shown
  const section = tree.sections.find((s) => s.id === siteSpace.sectionId)
  const sectionPart = section === undefined || section.id === tree.site.defaultSectionId ? [] : [section.path]
  return opened.shown.defaults.has(siteSpace.id) ? sectionPart : [...sectionPart, siteSpace.path]
}

const outline = (headings: ReadonlyArray<OutlineHeading>) => {
  const shown = headings.filter((h) => h.depth <= 3)
  if (shown.length === 0) return html`<aside class="outline" aria-label="On this page"></aside>`
  return html`<aside class="outline" aria-label="On this page"><h2>On this page</h2><ul>${
    shown.map((h) => html`<li class="depth-${Math.max(2, h.depth)}"><a href="#${h.anchor}">${h.text}</a></li>`)
  }</ul></aside>`
}

/** A page of a published site, whole. */
export const pageDocument = (
  opened: OpenedSite,
  address: SiteAddress,
  page: ReaderPage,
  rendered: RenderedPages["Type"]
): Html => {
  const { node } = page
  const layout = node.page.layout ?? {}
  // With adaptive content, which pages a link may reach depends on the visitor's claims too.
  const claims = opened.site.adaptiveContent ? JSON.stringify(opened.claims) : ""
  const key = `${page.revisionId}\u0000${node.page.id}\u0000${address.base}\u0000${page.address}\u0000${claims}`
  const body = rendered.renderedOnce(key, () =>
    renderHtml(node.page.markdown, {
      link: (url: string) => hrefOf(address, page, page.link(url)),
      asset: (url: string) => {
        const link = page.link(url)
        return link.kind === "file" ? fileHref(address, page, link.file.id) : link.kind === "external" ? link.url : undefined
      },
      headingOffset: 1
    }))
  const cover = node.page.cover === undefined || layout.cover === false
    ? undefined
    : page.link(node.page.cover.file.startsWith("/files/") ? node.page.cover.file : `/files/${node.page.cover.file}`)
  const markdownHref = `${pageHref(address, page, node.path)}.md`
  return document({
    assets: `${address.base}/~assets`,
    title: `${node.page.title} | ${opened.site.title}`,
    description: node.page.description,
    markdownHref,
    language: languageOf(opened, page),
    body: html`${header(opened, address, page)}
<div class="layout">
<div class="sidebar">
${spaceSwitcher(opened, address, page)}
${
      layout.tableOfContents === false
        ? ""
        : html`<nav class="pages" aria-label="Pages">${tree(address, page, page.navigation, node)}</nav>`
    }
</div>
<main id="content" tabindex="-1">
<article>
${cover?.kind === "file" ? html`<img class="cover" src="${fileHref(address, page, cover.file.id)}" alt="">` : ""}
<h1${layout.title === false ? html` class="visually-hidden"` : ""}>${
      node.page.emoji === undefined ? "" : `${node.page.emoji} `
    }${node.page.title}</h1>
${layout.description === false || node.page.description === undefined ? "" : html`<p class="description">${node.page.description}</p>`}
${trusted(body.html)}
</article>
${
      layout.pagination === false ? "" : html`<nav class="pagination" aria-label="Previous and next pages">
${
        page.previous === undefined
          ? ""
          : html`<a class="previous" href="${
            pageHref(address, page, page.previous.path)
          }"><small>Previous</small>${page.previous.page.title}</a>`
      }
${
        page.next === undefined
          ? ""
          : html`<a class="next" href="${pageHref(address, page, page.next.path)}"><small>Next</small>${page.next.page.title}</a>`
      }
</nav>`
    }
</main>
${layout.outline === false ? html`<aside class="outline" aria-label="On this page"></aside>` : outline(body.headings)}
</div>`
  })
}

const snippet = (body: string) => (body.length > 200 ? `${body.slice(0, 200).trimEnd()}…` : body)

/** The answer of the search box: the pages found, each with its matching sections linked at their anchors. */
export const searchDocument = (
  opened: OpenedSite,
  address: SiteAddress,
  query: string,
  results: ReadonlyArray<ReaderSearchResult> | string
): Html =>
  document({
    assets: `${address.base}/~assets`,
    title: query === "" ? `Search | ${opened.site.title}` : `${query} | Search | ${opened.site.title}`,
    language: languageOf(opened, undefined),
    body: html`${header(opened, address, undefined, query)}
<main id="content" class="message" tabindex="-1">
<h1>Search</h1>
${
      typeof results === "string"
        ? html`<p>${results}</p>`
        : query === ""
        ? html`<p>Type words to look for in these docs.</p>`
        : results.length === 0
        ? html`<p>Nothing was found for “${query}”.</p>`
        : html`<p>${results.length} ${results.length === 1 ? "page" : "pages"} found for “${query}”.</p>
<ul class="results">${
          results.map((result) => {
            const href = pageHref(address, result.space, result.node.path)
            return html`<li><a href="${href}"><strong>${result.node.page.title}</strong></a>${
              result.sections.length === 0 ?
                "" :
                html`<ul>${
                  result.sections.map((section) =>
                    html`<li><a href="${section.anchor === "" ? href : `${href}#${section.anchor}`}">${
                      section.title === "" ? result.node.page.title : section.title
                    }</a><br><small>${snippet(section.body)}</small></li>`
                  )
                }</ul>`
            }</li>`
          })
        }</ul>`
    }
</main>`
  })

/** A short page of its own: not found, sign-in needed. */
export const messageDocument = (title: string, message: string, link?: { readonly href: string; readonly label: string }) =>
  document({
    title,
    body: html`<main id="content" class="message"><h1>${title}</h1><p>${message}</p>${
      link === undefined ? "" : html`<p><a href="${link.href}">${link.label}</a></p>`
    }</main>`
  })

/** The site's pages, each with its site space, in reading order, for llms.txt, llms-full.txt, the sitemap and MCP. */
export const everyPage = (spaces: ReadonlyArray<ReaderSpace>) => {
  const out: Array<{ readonly space: ReaderSpace; readonly node: PageNode }> = []
  const walk = (space: ReaderSpace, nodes: ReadonlyArray<PageNode>) =>
    nodes.forEach((node) => {
      if (node.page.kind === "document") out.push({ space, node })
      walk(space, node.pages)
    })
  spaces.forEach((space) => walk(space, space.navigation))
  return out
}

/** A page's markdown as programs read it: its title as a heading, its description, then its body. */
export const markdownOf = (node: PageNode) =>
  `# ${node.page.title}\n\n${node.page.description === undefined ? "" : `${node.page.description}\n\n`}${node.page.markdown}`.trimEnd() +
  "\n"
