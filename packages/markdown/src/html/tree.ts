import type { Element, ElementContent, Parents, Root, RootContent } from "hast"
import { phrasing } from "hast-util-phrasing"

/**
 * Calls `enter` on each node under `root` in document order, its depth below `root` counted from
 * 1 (`false` skips an element's children), and `leave` on each element once its children are done.
 * A loop, not recursion: a page may nest deeper than the stack allows.
 */
export const walk = (
  root: Parents,
  enter: (node: RootContent, parent: Parents, depth: number) => boolean,
  leave?: (element: Element, depth: number) => void
): void => {
  interface Step {
    readonly node: RootContent
    readonly parent: Parents
    readonly depth: number
    readonly leaving: boolean
  }
  const stack: Array<Step> = []
  const pushChildren = (parent: Parents, depth: number) => {
    for (let i = parent.children.length - 1; i >= 0; i--) {
      const node = parent.children[i]
      if (node !== undefined) stack.push({ node, parent, depth, leaving: false })
    }
  }
  pushChildren(root, 1)
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const { depth, node } = step
    if (node.type !== "element") {
      if (!step.leaving) enter(node, step.parent, depth)
      continue
    }
    if (step.leaving) {
      leave?.(node, depth)
      continue
    }
    if (enter(node, step.parent, depth)) {
      if (leave !== undefined) stack.push({ ...step, leaving: true })
      pushChildren(node, depth + 1)
    }
  }
}

/** HTML's whitespace, which a browser collapses; no-break spaces are not part of it. */
export const collapse = (text: string): string => text.replace(/[ \t\n\r\f]+/g, " ")

/** The text a reader sees of `node`, line breaks and the edges of blocks as spaces (not yet collapsed). */
export const textOf = (node: Parents): string => {
  const parts: Array<string> = []
  walk(node, (child) => {
    if (child.type === "text") parts.push(child.value)
    if (child.type !== "element") return false
    if (child.tagName === "br" || !phrasing(child)) parts.push(" ")
    return true
  }, (element) => {
    if (!phrasing(element)) parts.push(" ")
  })
  return parts.join("")
}

/** The one-line text of `node`: collapsed and trimmed. */
export const lineOf = (node: Parents): string => collapse(textOf(node)).trim()

export const stringProperty = (element: Element, name: string): string | undefined => {
  const value = element.properties[name]
  return typeof value === "string" ? value : undefined
}

export const isHeading = (element: Element): boolean => /^h[1-6]$/.test(element.tagName)

/** What a document holds beyond its main content: the crawl's links, the fallback title, what links resolve against. */
export interface DocumentScan {
  /** The first `<base href>`'s href. */
  readonly base: string | undefined
  /** Every `<a href>`'s href, in document order. */
  readonly hrefs: ReadonlyArray<string>
  readonly titleElement: Element | undefined
  /** `<main>`, else the first `[role=main]`, else the first `<article>`. */
  readonly marked: Element | undefined
  readonly body: Element | undefined
}

/**
 * Not read for links or a title: foreign content (SVG, MathML), whose `a` and `title` are not
 * HTML's, and what a browser running scripts does not show.
 */
const UNREAD = new Set(["svg", "math", "noscript", "template"])

export const scanDocument = (document: Root): DocumentScan => {
  let base: string | undefined
  const hrefs: Array<string> = []
  let titleElement: Element | undefined
  let main: Element | undefined
  let byRole: Element | undefined
  let article: Element | undefined
  let body: Element | undefined
  walk(document, (node) => {
    if (node.type !== "element" || UNREAD.has(node.tagName)) return false
    const href = stringProperty(node, "href")
    if (node.tagName === "a" && href !== undefined) hrefs.push(href)
    if (node.tagName === "base" && href !== undefined) base ??= href
    if (node.tagName === "title") titleElement ??= node
    if (node.tagName === "main") main ??= node
    if (stringProperty(node, "role")?.trim().toLowerCase() === "main") byRole ??= node
    if (node.tagName === "article") article ??= node
    if (node.tagName === "body") body ??= node
    return true
  })
  return { base, hrefs, titleElement, marked: main ?? byRole ?? article, body }
}

/** Never content: scripts, styles, embedded documents and the controls of forms. */
const NEVER_CONTENT = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "iframe",
  "form",
  "button",
  "head",
  "select",
  "textarea",
  "object",
  "embed",
  "canvas",
  "audio",
  "video",
  "dialog"
])
/** The site's chrome around a page, dropped when no element marks the main content. */
const CHROME = new Set(["nav", "header", "footer", "aside"])
const CHROME_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search"])

/** Past this nesting below the main content, structure is given up for plain text: the converters recurse. */
export const MAX_DEPTH = 200
/** The most columns a table is written with. */
export const MAX_COLUMNS = 64
const MAX_ROW_SPAN = 100

const isDropped = (element: Element, chrome: boolean): boolean => {
  if (NEVER_CONTENT.has(element.tagName)) return true
  const hidden = element.properties.hidden
  if (
    (hidden !== undefined && hidden !== null && hidden !== false) || String(element.properties.ariaHidden).trim().toLowerCase() === "true"
  )
    return true
  return chrome && (CHROME.has(element.tagName) || CHROME_ROLES.has(stringProperty(element, "role")?.trim().toLowerCase() ?? ""))
}

/** A span attribute as a count between 1 and `max`. */
const spanOf = (value: unknown, max: number): number => {
  const span = typeof value === "number" ? value : Number.parseInt(String(value), 10)
  return Number.isFinite(span) && span >= 1 ? Math.min(Math.floor(span), max) : 1
}

const isList = (node: ElementContent): boolean => node.type === "element" && (node.tagName === "ul" || node.tagName === "ol")

/** A list right inside a list belongs to the item before it. */
const nestLists = (list: Element): void => {
  if (!list.children.some(isList)) return
  const children: Array<ElementContent> = []
  let item: Element | undefined
  for (const child of list.children) {
    if (child.type === "element" && isList(child)) {
      if (item === undefined) {
        item = { type: "element", tagName: "li", properties: {}, children: [] }
        children.push(item)
      }
      item.children.push(child)
      continue
    }
    if (child.type === "element" && child.tagName === "li") item = child
    children.push(child)
  }
  list.children = children
}

/**
 * Elements hast-util-to-mdast's whitespace minifier stops at (its blocks, form controls, embedded
 * content). It scans past any other element that holds no text, from each of the element's
 * siblings: a run of thousands of empty `<span>`s or `<a>`s would take it minutes. `prepare`
 * removes such elements, which show nothing.
 */
const BOUNDARIES = new Set([
  ...["address", "article", "aside", "blockquote", "body", "br", "caption", "center", "col", "colgroup", "dd", "dialog", "dir"],
  ...["div", "dl", "dt", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header"],
  ...["hgroup", "hr", "html", "legend", "li", "listing", "main", "menu", "nav", "ol", "optgroup", "option", "p", "plaintext"],
  ...["pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "wbr", "xmp"],
  ...["button", "input", "select", "textarea"],
  ...["audio", "canvas", "embed", "iframe", "img", "math", "object", "picture", "svg", "video"]
])

/** Text a browser shows: anything but HTML's whitespace (a no-break space shows). */
const shows = (node: ElementContent): boolean => node.type === "element" || (node.type === "text" && /[^ \t\n\r\f]/.test(node.value))

/**
 * Makes the main content ready for conversion, in one walk, in place: drops what is never content
 * (and the site's chrome when `chrome`), comments, the permalink anchors of headings, and elements
 * that show nothing; puts lists right inside lists into an item; bounds table spans; reads past
 * MAX_DEPTH as plain text.
 */
export const prepare = (content: Element, chrome: boolean): void => {
  delete content.position
  // What takes the place of a removed node: nothing, or the space an element of whitespace leaves.
  const removed = new Map<RootContent, string>()
  // Permalink anchors beside a heading's text ("#", "¶", "🔗") are not part of it: an anchor is
  // one when no letter or digit was read between entering and leaving it.
  let headings = 0
  let lettered = 0
  const anchors = new Map<Element, number>()
  walk({ type: "root", children: [content] }, (node) => {
    // Positions are of no use here, and hast-util-to-mdast clones the tree with them.
    delete node.position
    if (node.type === "text") {
      if (headings > 0 && /[\p{L}\p{N}]/u.test(node.value)) lettered++
      return false
    }
    if (node.type !== "element") {
      if (node.type === "comment") removed.set(node, "")
      return false
    }
    if (node !== content && isDropped(node, chrome)) {
      removed.set(node, "")
      return false
    }
    if (isHeading(node)) headings++
    if (headings > 0 && node.tagName === "a" && stringProperty(node, "href")?.trim().startsWith("#") === true) anchors.set(node, lettered)
    if (node.tagName === "ul" || node.tagName === "ol") nestLists(node)
    if (node.tagName === "td" || node.tagName === "th") {
      node.properties.colSpan = spanOf(node.properties.colSpan, MAX_COLUMNS)
      node.properties.rowSpan = spanOf(node.properties.rowSpan, MAX_ROW_SPAN)
      // `align` is obsolete: pages say it in CSS (a declaration, not markup).
      const align = /text-align\s*:\s*(left|right|center)/i.exec(stringProperty(node, "style") ?? "")?.[1]
      if (node.properties.align === undefined && align !== undefined) node.properties.align = align.toLowerCase()
    }
    return true
  }, (element, depth) => {
    if (isHeading(element)) headings--
    if (anchors.get(element) === lettered) removed.set(element, "")
    const children: Array<ElementContent> = []
    for (const child of element.children) {
      const replacement = removed.get(child)
      const node: ElementContent | undefined = replacement === undefined
        ? child
        : replacement === ""
        ? undefined
        : { type: "text", value: replacement }
      const previous = children[children.length - 1]
      // Text that removed nodes parted is joined again.
      if (node?.type === "text" && previous?.type === "text") previous.value += node.value
      else if (node !== undefined) children.push(node)
    }
    element.children = children
    if (depth === MAX_DEPTH && children.some((child) => child.type === "element")) {
      const text = textOf(element)
      element.children = text === "" ? [] : [{ type: "text", value: text }]
    }
    if (element === content || BOUNDARIES.has(element.tagName) || element.children.some(shows)) return
    // A link around nothing shows its accessible name.
    const name = element.tagName === "a"
      ? collapse(stringProperty(element, "ariaLabel") ?? stringProperty(element, "title") ?? "").trim()
      : ""
    if (name !== "") element.children = [{ type: "text", value: name }]
    else if (!removed.has(element)) removed.set(element, element.children.length > 0 ? " " : "")
  })
}
