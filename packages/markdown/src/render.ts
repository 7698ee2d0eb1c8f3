import GithubSlugger from "github-slugger"
import type { Element, ElementContent, Parents as HastParents, Properties, Root as HastRoot } from "hast"
import { fromHtml } from "hast-util-from-html"
import { toHtml } from "hast-util-to-html"
import { toText } from "hast-util-to-text"
import katex from "katex"
import type { Code, Heading, Image, Link, Nodes, Parents, Root } from "mdast"
import { fromMarkdown } from "mdast-util-from-markdown"
import { gfmFromMarkdown } from "mdast-util-gfm"
import { defaultHandlers, type Handler, type State, toHast } from "mdast-util-to-hast"
import { gfm } from "micromark-extension-gfm"
import { lineOf } from "./html/tree.js"
import { parseHtml } from "./html/parse.js"
import type { Column, Columns, ContentRef, Embed, Expandable, Figure, FileBlock, Hint, Step, Stepper, Tab, Tabs } from "./nodes.js"
import { parse } from "./parse.js"
import { cellMarkdown, classesOf, gitbookBlocks, mapElements } from "./render/blocks.js"
import { clean, parseRawHtml } from "./render/sanitize.js"
import { anchorOf, textOf } from "./text.js"

/** A heading of a rendered page, with the anchor its element carries (the same as the search index's). */
export interface OutlineHeading {
  readonly depth: number
  readonly text: string
  readonly anchor: string
}

export interface RenderOptions {
  /** Where a link leads: a href, or undefined when it leads nowhere (the link is then shown as plain text). */
  readonly link: (url: string) => string | undefined
  /** Where an image or a file block's bytes are served; undefined leaves the image out. */
  readonly asset: (url: string) => string | undefined
  /** Levels added to every heading (at most `h6`): 1 when the page's title is the document's only `h1`. */
  readonly headingOffset?: number | undefined
}

export interface Rendered {
  /** The page's body as HTML: raw HTML of the markdown cleaned by an allowlist, every text escaped. */
  readonly html: string
  readonly headings: ReadonlyArray<OutlineHeading>
}

const element = (tagName: string, properties: Properties, children: Array<ElementContent>): Element => ({
  type: "element",
  tagName,
  properties,
  children
})
const text = (value: string): ElementContent => ({ type: "text", value })

/**
 * TeX as MathML, which browsers lay out themselves (no style sheet or font to serve), by KaTeX; what it
 * cannot read is shown as its source. KaTeX's markup is read back into the tree, not spliced in as text.
 */
const mathOf = (tex: string, display: boolean): Array<ElementContent> => {
  try {
    const markup = katex.renderToString(tex, {
      displayMode: display,
      output: "mathml",
      throwOnError: true,
      trust: false,
      strict: "ignore",
      maxExpand: 200
    })
    return fromHtml(markup, { fragment: true }).children as Array<ElementContent>
  } catch {
    return [element("code", {}, [text(tex)])]
  }
}

const hintLabels: Record<Hint["style"], string> = { info: "Info", warning: "Warning", danger: "Danger", success: "Success" }

type Handlers = Record<string, Handler>

/**
 * The handlers that write mdast as hast. Urls are written as the page wrote them, and headings at
 * their markdown depth with their words: `finish` points urls, shifts and anchors headings, for the
 * page's HTML and its markdown alike.
 */
const handlers: Handlers = {
  link: ((state: State, node: Link) => element("a", { href: node.url }, state.all(node))) as Handler,
  image: ((_state: State, node: Image) => element("img", { src: node.url, alt: node.alt ?? "" }, [])) as Handler,
  heading: ((state: State, node: Heading) => element(`h${node.depth}`, { dataHeadingText: textOf(node) }, state.all(node))) as Handler,
  code: ((state: State, node: Code) => {
    const pre = defaultHandlers.code(state, node)
    const title = node.data?.title
    const children: Array<ElementContent> = []
    if (title !== undefined) children.push(element("div", { className: ["code-title"] }, [text(title)]))
    children.push(pre)
    return element("div", { className: ["code-block", ...(node.data?.overflow === "wrap" ? ["wrap"] : [])] }, children)
  }) as Handler,
  hint: ((state: State, node: Hint) =>
    element("div", { className: ["hint", `hint-${node.style}`], role: "note" }, [
      element("p", { className: ["hint-label"] }, [text(hintLabels[node.style])]),
      ...state.all(node)
    ])) as Handler,
  tabs: ((state: State, node: Tabs) => element("div", { className: ["tabs"] }, state.all(node))) as Handler,
  tab: ((state: State, node: Tab) =>
    element("section", { className: ["tab"] }, [
      element("p", { className: ["tab-title"] }, [text(node.title)]),
      ...state.all(node)
    ])) as Handler,
  // A step's first heading is its title: the list numbers the steps, the heading names them.
  stepper: ((state: State, node: Stepper) => element("ol", { className: ["stepper"] }, state.all(node))) as Handler,
  step: ((state: State, node: Step) => element("li", { className: ["step"] }, state.all(node))) as Handler,
  columns: ((state: State, node: Columns) => element("div", { className: ["columns"] }, state.all(node))) as Handler,
  column:
    ((state: State, node: Column) => element("div", { className: ["column", ...columnWidth(node.width)] }, state.all(node))) as Handler,
  expandable: ((state: State, node: Expandable) =>
    element("details", node.open ? { open: true } : {}, [
      element("summary", {}, [text(node.title)]),
      ...state.all(node)
    ])) as Handler,
  figure: ((_state: State, node: Figure) =>
    element("figure", {}, [
      element("img", { src: node.url, alt: node.alt, ...(node.width === undefined ? {} : { width: node.width }) }, []),
      ...(node.caption === "" ? [] : [element("figcaption", {}, [text(node.caption)])])
    ])) as Handler,
  embed: ((_state: State, node: Embed) => urlBlock(node, "embed")) as Handler,
  contentRef: ((_state: State, node: ContentRef) => urlBlock(node, "content-ref")) as Handler,
  file: ((_state: State, node: FileBlock) => urlBlock(node, "file")) as Handler,
  // Reusable content is a later version's; a reference to it shows nothing.
  include: (() => undefined) as Handler,
  // TeX is laid out once the tree is clean: KaTeX's MathML is the renderer's own, not the page's.
  math: ((_state: State, node: Nodes & { value: string }) => element("div", { className: ["math"], dataTex: node.value }, [])) as Handler,
  inlineMath:
    ((_state: State, node: Nodes & { value: string }) => element("span", { className: ["math"], dataTex: node.value }, [])) as Handler
}

/**
 * A column's width as a class of the reader's style sheet (`column-w50`), in steps of 5%: the reader's
 * content security policy allows no inline style. A width in other units leaves the column its share.
 */
const columnWidth = (width: string | undefined): Array<string> => {
  const percent = width === undefined ? undefined : /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(width)?.[1]
  if (percent === undefined) return []
  const step = Math.min(95, Math.max(5, Math.round(Number(percent) / 5) * 5))
  return [`column-w${step}`]
}

const urlBlock = (node: Embed | ContentRef | FileBlock, kind: string): Element => {
  const caption = textOf(node)
  return element("p", { className: [kind] }, [element("a", { href: node.url }, [text(caption === "" ? node.url : caption)])])
}

const toHastOf = (tree: Root): HastRoot => toHast(tree as Parents as Root, { handlers, allowDangerousHtml: true }) as HastRoot

/** Markdown inside a table cell of HTML, as phrasing; undefined when it reads as plain text or as more than a paragraph. */
const cellPhrasing = (markdown: string): Array<ElementContent> | undefined => {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })
  const only = tree.children.length === 1 ? tree.children[0] : undefined
  if (only?.type !== "paragraph" || only.children.every((c) => c.type === "text") || only.children.some((c) => c.type === "html")) {
    return undefined
  }
  const hast = toHastOf({ type: "root", children: [only] })
  const paragraph = hast.children[0]
  return paragraph?.type === "element" ? paragraph.children : undefined
}

const hasRaw = (node: HastRoot | ElementContent): boolean =>
  (node.type as string) === "raw" || ("children" in node && node.children.some((child) => hasRaw(child as ElementContent)))

/** Markup too deep to read: each raw node shows its text. */
const rawAsText = (tree: HastParents): void => {
  tree.children = tree.children.map((child) => {
    if ((child.type as string) === "raw") return { type: "text", value: lineOf(parseHtml((child as unknown as { value: string }).value)) }
    if ("children" in child) rawAsText(child)
    return child
  }) as typeof tree.children
}

/** Points the urls of links and images where the options say; in-page anchors stay as written. */
const pointUrls = (tree: HastRoot, options: RenderOptions): void =>
  mapElements(tree, (node) => {
    if (node.tagName === "a") {
      const href = node.properties["href"]
      if (typeof href !== "string" || href.startsWith("#")) return undefined
      const target = options.link(href) ?? options.asset(href)
      if (target !== undefined) {
        node.properties["href"] = target
        return undefined
      }
      delete node.properties["href"]
      // A card or a button that leads nowhere is still shown; a link that does is its text.
      const classes = classesOf(node)
      if (classes.includes("card")) return [{ ...node, tagName: "div" }]
      return classes.includes("button") ? [{ ...node, tagName: "span" }] : node.children
    }
    if (node.tagName === "img") {
      const src = node.properties["src"]
      const target = typeof src === "string" ? options.asset(src) : undefined
      if (target === undefined) return []
      node.properties["src"] = target
      node.properties["loading"] ??= "lazy"
      return undefined
    }
    if (node.tagName === "source") {
      const srcset = node.properties["srcSet"]
      const target = typeof srcset === "string" ? options.asset(srcset.trim()) : undefined
      if (target === undefined) return []
      node.properties["srcSet"] = target
      return undefined
    }
    return undefined
  })

const insideFootnotes = (node: Element): boolean => node.tagName === "section" && node.properties["dataFootnotes"] !== undefined

/**
 * Gives every heading, of the markdown or of its HTML, GitHub's anchor (an id the HTML gave is kept),
 * unique in the page as the search index makes them, shifts it by the offset, and lists it.
 */
const anchorHeadings = (tree: HastRoot, offset: number): Array<OutlineHeading> => {
  const slugger = new GithubSlugger()
  const headings: Array<OutlineHeading> = []
  const visit = (parent: HastParents) => {
    for (const child of parent.children) {
      if (child.type !== "element" || insideFootnotes(child)) continue
      const depth = /^h([1-6])$/.exec(child.tagName)?.[1]
      if (depth === undefined) {
        visit(child)
        continue
      }
      const { dataHeadingText, id, ...rest } = child.properties
      const words = typeof dataHeadingText === "string" ? dataHeadingText : toText(child).replace(/\s+/g, " ").trim()
      const anchor = typeof id === "string" && id !== "" ? id : slugger.slug(anchorOf(words) === "" ? "section" : words)
      headings.push({ depth: Number(depth), text: words, anchor })
      child.tagName = `h${Math.min(6, Number(depth) + offset)}`
      child.properties = { id: anchor, ...rest }
      child.children.push(element("a", { href: `#${anchor}`, className: ["anchor"], ariaLabel: `Link to ${words}` }, [text("#")]))
    }
  }
  visit(tree)
  return headings
}

/** Lays out the TeX of math elements. */
const layMath = (tree: HastRoot): void =>
  mapElements(tree, (node) => {
    const tex = node.properties["dataTex"]
    if (typeof tex !== "string" || !classesOf(node).includes("math")) return undefined
    delete node.properties["dataTex"]
    node.children = mathOf(tex, node.tagName === "div")
    return undefined
  })

/**
 * A page's markdown as HTML for readers, GitBook's blocks included: hints as notes, tabs as titled
 * panels, steppers as numbered lists of steps, columns side by side, expandables as `<details>`, code with its title, figures, embeds and content references as
 * links, math as MathML (KaTeX). The HTML GitBook's editor writes in markdown is read as HTML (framed
 * figures, tables, cards, icons, button links, aligned headings and paragraphs) and any other HTML is
 * cleaned by an allowlist; links and images of both point where `options` say. Headings carry GitHub's
 * anchors, made unique in the page as the search index makes them, so a search result's anchor lands
 * on its heading.
 */
export const renderHtml = (markdown: string, options: RenderOptions): Rendered => {
  let tree = toHastOf(parse(markdown))
  if (hasRaw(tree)) {
    const parsed = parseRawHtml(tree)
    if (parsed === undefined) rawAsText(tree)
    else {
      cellMarkdown(parsed, cellPhrasing)
      tree = clean(parsed)
    }
  }
  gitbookBlocks(tree)
  pointUrls(tree, options)
  const headings = anchorHeadings(tree, options.headingOffset ?? 0)
  layMath(tree)
  return { html: toHtml(tree), headings }
}
