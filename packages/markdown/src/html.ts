import type { Element, ElementContent, Parents } from "hast"
import { toMdast } from "hast-util-to-mdast"
import type { Image, Link, Root } from "mdast"
import { visit } from "unist-util-visit"
import { handlersFor, isWeb } from "./html/handlers.js"
import { type Markers, normalize } from "./html/normalize.js"
import { parseHtml } from "./html/parse.js"
import { lineOf, prepare, scanDocument, walk } from "./html/tree.js"
import { stringify } from "./stringify.js"

export { decodeHtml } from "./html/decode.js"

/** Where the links and images of an imported page point once it is in a space. */
export interface MarkdownRewrite {
  /** Called with the absolute URL of each <a href> (fragment kept); returns what the markdown link points to. */
  readonly link: (url: string) => string
  /** Called with the absolute URL of each <img src>; returns what the markdown image points to. */
  readonly image: (url: string) => string
}

/** A fetched HTML page, read for "import content from a website". */
export interface HtmlPage {
  /** The first <h1> of the main content, else <title>, trimmed and whitespace-collapsed; undefined when neither has text. */
  readonly title: string | undefined
  /** Absolute http(s) URLs of every <a href> in the whole document (navigation included), fragment removed, distinct, in document order. */
  readonly links: ReadonlyArray<string>
  /** Absolute http(s) URLs of every <img src> in the main content, distinct, in document order. */
  readonly images: ReadonlyArray<string>
  /** The main content as GitHub-flavoured markdown; the <h1> used as title is left out. */
  readonly toMarkdown: (rewrite: MarkdownRewrite) => string
}

/** The delimiters `stringify` writes: emphasis is kept only where they can express it. */
export const STRINGIFY_MARKERS: Markers = { emphasis: "*", strong: "*", delete: "~" }

const urlOf = (reference: string, base?: URL): URL | undefined => {
  try {
    return new URL(reference, base)
  } catch {
    return undefined
  }
}

/** Removes the first <h1> with text under `content` and gives its text (an <h1> without text holds none with text). */
const takeTitleHeading = (content: Element): string | undefined => {
  let found: { readonly heading: Element; readonly parent: Parents } | undefined
  walk({ type: "root", children: [content] }, (node, parent) => {
    if (found !== undefined || node.type !== "element") return false
    if (node.tagName !== "h1") return true
    if (lineOf(node) !== "") found = { heading: node, parent }
    return false
  })
  if (found === undefined) return undefined
  const { heading, parent } = found
  parent.children = parent.children.filter((child) => child !== heading)
  return lineOf(heading)
}

/**
 * Reads a fetched HTML page at `url`: its title, the links of the whole document (the crawl's
 * frontier), and its main content (`<main>`, else `[role=main]`, else the first `<article>`,
 * else `<body>` without the site's chrome) as markdown whose links and images are pointed at the
 * caller's targets.
 *
 * The page is kept as mdast: its HTML tree can be collected while the rest of an import goes on.
 */
export const readHtml = (html: string, url: string): HtmlPage => {
  const document = parseHtml(html)
  const scan = scanDocument(document)

  // Links resolve against the first <base href>, itself resolved against the page's URL.
  const pageUrl = urlOf(url)
  const baseHref = scan.base === undefined ? undefined : urlOf(scan.base, pageUrl)
  const base = baseHref !== undefined && isWeb(baseHref) ? baseHref : pageUrl
  const resolve = (reference: string) => urlOf(reference, base)

  const links = new Set<string>()
  for (const href of scan.hrefs) {
    const target = resolve(href)
    if (target === undefined || !isWeb(target)) continue
    target.hash = ""
    links.add(target.href)
  }

  const content: Element = scan.marked ?? scan.body ?? {
    type: "element",
    tagName: "div",
    properties: {},
    children: document.children.filter((child): child is ElementContent => child.type !== "doctype")
  }
  prepare(content, scan.marked === undefined)
  const title = takeTitleHeading(content) ?? (scan.titleElement === undefined ? "" : lineOf(scan.titleElement))

  const tree = toMdast({ type: "root", children: [content] }, { handlers: handlersFor(resolve) }) as Root
  normalize(tree, STRINGIFY_MARKERS, stringify)

  // Each link and image with the absolute URL it was read with: `toMarkdown` points it anew each call.
  const targets: Array<{ readonly node: Link | Image; readonly url: string }> = []
  visit(tree, (node) => {
    if (node.type === "link" || node.type === "image") targets.push({ node, url: node.url })
  })
  const images = Array.from(new Set(targets.flatMap(({ node, url }) => (node.type === "image" ? [url] : []))))

  return {
    title: title === "" ? undefined : title,
    links: Array.from(links),
    images,
    toMarkdown: (rewrite) => {
      for (const { node, url } of targets) node.url = node.type === "link" ? rewrite.link(url) : rewrite.image(url)
      return stringify(tree)
    }
  }
}
