import GithubSlugger from "github-slugger"
import type { Element, ElementContent, Properties } from "hast"
import { fromHtml } from "hast-util-from-html"
import { toHtml } from "hast-util-to-html"
import katex from "katex"
import type { Code, Heading, Image, Link, Nodes, Parents, Root } from "mdast"
import { defaultHandlers, type Handler, type State, toHast } from "mdast-util-to-hast"
import type { ContentRef, Embed, Expandable, Figure, FileBlock, Hint, Tab, Tabs } from "./nodes.js"
import { parse } from "./parse.js"
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
  /** The page's body as HTML: raw HTML of the markdown is dropped, every text escaped. */
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

/**
 * A page's markdown as HTML for readers, GitBook's blocks included: hints as notes, tabs as titled
 * panels, expandables as `<details>`, code with its title, figures, embeds and content references as
 * links, math as MathML (KaTeX). Headings carry GitHub's anchors, made unique in the page as the
 * search index makes them, so a search result's anchor lands on its heading.
 */
export const renderHtml = (markdown: string, options: RenderOptions): Rendered => {
  const tree: Root = parse(markdown)
  const slugger = new GithubSlugger()
  const headings: Array<OutlineHeading> = []

  const link = (state: State, node: Link): ElementContent | Array<ElementContent> => {
    const href = options.link(node.url)
    if (href === undefined) return state.all(node)
    return element("a", { href }, state.all(node))
  }
  const image = (_state: State, node: Image): ElementContent | undefined => {
    const src = options.asset(node.url)
    return src === undefined ? undefined : element("img", { src, alt: node.alt ?? "", loading: "lazy" }, [])
  }
  const heading = (state: State, node: Heading): Element => {
    const words = textOf(node)
    const anchor = slugger.slug(anchorOf(words) === "" ? "section" : words)
    headings.push({ depth: node.depth, text: words, anchor })
    const level = Math.min(6, node.depth + (options.headingOffset ?? 0))
    return element(`h${level}`, { id: anchor }, [
      ...state.all(node),
      element("a", { href: `#${anchor}`, className: ["anchor"], ariaLabel: `Link to ${words}` }, [text("#")])
    ])
  }
  const code = (state: State, node: Code): Element => {
    const pre = defaultHandlers.code(state, node)
    const title = node.data?.title
    const children: Array<ElementContent> = []
    if (title !== undefined) children.push(element("div", { className: ["code-title"] }, [text(title)]))
    children.push(pre)
    return element("div", { className: ["code-block", ...(node.data?.overflow === "wrap" ? ["wrap"] : [])] }, children)
  }
  const urlBlock = (node: Embed | ContentRef | FileBlock, kind: string): Element => {
    const caption = textOf(node)
    const href = kind === "file" ? options.asset(node.url) : options.link(node.url)
    const label = caption === "" ? node.url : caption
    return element("p", { className: [kind] }, [href === undefined ? text(label) : element("a", { href }, [text(label)])])
  }

  const handlers: Record<string, Handler> = {
    link: link as Handler,
    image: image as Handler,
    heading: heading as Handler,
    code: code as Handler,
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
    expandable: ((state: State, node: Expandable) =>
      element("details", node.open ? { open: true } : {}, [
        element("summary", {}, [text(node.title)]),
        ...state.all(node)
      ])) as Handler,
    figure: ((_state: State, node: Figure) => {
      const src = options.asset(node.url)
      if (src === undefined) return undefined
      return element("figure", {}, [
        element("img", { src, alt: node.alt, loading: "lazy" }, []),
        ...(node.caption === "" ? [] : [element("figcaption", {}, [text(node.caption)])])
      ])
    }) as Handler,
    embed: ((_state: State, node: Embed) => urlBlock(node, "embed")) as Handler,
    contentRef: ((_state: State, node: ContentRef) => urlBlock(node, "content-ref")) as Handler,
    file: ((_state: State, node: FileBlock) => urlBlock(node, "file")) as Handler,
    // Reusable content is a later version's; a reference to it shows nothing.
    include: (() => undefined) as Handler,
    math:
      ((_state: State, node: Nodes & { value: string }) => element("div", { className: ["math"] }, mathOf(node.value, true))) as Handler,
    inlineMath:
      ((_state: State, node: Nodes & { value: string }) => element("span", { className: ["math"] }, mathOf(node.value, false))) as Handler
  }

  const hast = toHast(tree as Parents as Root, { handlers, allowDangerousHtml: false })
  return { html: toHtml(hast), headings }
}
