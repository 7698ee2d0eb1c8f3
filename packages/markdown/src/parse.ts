import type { Code, CodeData, Html, Nodes, Parent, Root, RootContent } from "mdast"
import { fromMarkdown } from "mdast-util-from-markdown"
import { frontmatterFromMarkdown } from "mdast-util-frontmatter"
import { gfmFromMarkdown } from "mdast-util-gfm"
import { mathFromMarkdown } from "mdast-util-math"
import { frontmatter } from "micromark-extension-frontmatter"
import { gfm } from "micromark-extension-gfm"
import { math } from "micromark-extension-math"
import type { Position } from "unist"
import type {
  Column,
  Columns,
  ContentRef,
  Embed,
  Expandable,
  FileBlock,
  Figure,
  FlowContent,
  Hint,
  HintStyle,
  Include,
  Step,
  Stepper,
  Tab,
  Tabs
} from "./nodes.js"
import { hintStyles } from "./nodes.js"
import type { Marks, Span } from "./syntax.js"
import { gitbookTags, gitbookTagsFromMarkdown } from "./syntax.js"
import type { HtmlTag, LiquidTag, TagValue } from "./tags.js"
import { readHtmlTag, readLiquid, readMetaTitle } from "./tags.js"

/** What `parse` knows about a tree beyond mdast: where urls sit in the source, for splicing. */
export interface Parsed {
  readonly tree: Root
  /** Destinations of links, images and definitions. */
  readonly destinations: WeakMap<Nodes, Span>
  /** Urls of tags and figures (content-ref, embed, file, figure), with how the value is quoted. */
  readonly tagUrls: WeakMap<Nodes, Span & { readonly quote: string }>
}

type Tag =
  | { readonly kind: "liquid"; readonly node: Html; readonly tag: LiquidTag }
  | { readonly kind: "html"; readonly node: Html; readonly tag: HtmlTag }

// Liquid tags that wrap content until their `end<name>`; `embed` and `file` may also stand alone.
const paired = new Set(["hint", "tabs", "tab", "stepper", "step", "columns", "column", "code", "content-ref", "embed", "file"])
const optionallyPaired = new Set(["embed", "file"])

interface Frame {
  readonly name: string
  readonly open: Tag
  readonly children: Array<RootContent>
}

const span = (from: Nodes, to: Nodes): Position | undefined =>
  from.position !== undefined && to.position !== undefined ? { start: from.position.start, end: to.position.end } : undefined

const at = <T extends object>(node: T, position: Position | undefined): T => position === undefined ? node : { ...node, position }

const flowTypes = new Set([
  "blockquote",
  "code",
  "heading",
  "html",
  "list",
  "paragraph",
  "table",
  "thematicBreak",
  "math",
  "definition",
  "footnoteDefinition",
  "hint",
  "tabs",
  "embed",
  "contentRef",
  "file",
  "include",
  "expandable",
  "figure",
  "stepper",
  "columns"
])

const isFlow = (node: RootContent): node is FlowContent => flowTypes.has(node.type)

const flow = (children: ReadonlyArray<RootContent>): Array<FlowContent> | undefined => children.every(isFlow) ? [...children] : undefined

const attribute = (tag: LiquidTag, key: string): TagValue | undefined => tag.attributes.get(key)

/** Where a tag's url value sits in the source. */
const urlSpan = (node: Html, value: TagValue, quote: string): (Span & { quote: string }) | undefined => {
  const offset = node.position?.start.offset
  return offset === undefined ? undefined : { start: offset + value.start, end: offset + value.end, quote }
}

const quoteOf = (line: string, value: TagValue) => {
  const before = line[value.start - 1]
  return before === "\"" || before === "'" ? before : ""
}

/**
 * Pairs the tags among one list of siblings into custom nodes, inside out. A tag that does not pair,
 * or a block whose content does not fit it (a `tabs` with something else than tabs), stays as it was:
 * html nodes around parsed content, so nothing is dropped.
 */
const assemble = (children: ReadonlyArray<RootContent>, tags: WeakSet<Nodes>, parsed: Parsed): Array<RootContent> => {
  const root: Array<RootContent> = []
  const stack: Array<Frame> = []
  const output = () => stack[stack.length - 1]?.children ?? root

  // A frame left open: an optional pair stands alone, anything else is put back as it was.
  const unwind = (frame: Frame) => {
    const standalone = frame.open.kind === "liquid" && optionallyPaired.has(frame.name) ? build(frame, undefined, []) : undefined
    output().push(...(standalone === undefined ? [frame.open.node] : [standalone]), ...frame.children)
  }

  const build = (frame: Frame, close: Html | undefined, children: Array<RootContent>): RootContent | undefined => {
    const end = close ?? frame.open.node
    const position = span(frame.open.node, end)
    const content = flow(children)
    if (frame.open.kind === "html") {
      if (frame.open.tag.kind !== "details" || content === undefined) return undefined
      let title = frame.open.tag.summary
      let body = content
      const first = body[0]
      if (title === undefined && first?.type === "html" && tags.has(first)) {
        const summary = readHtmlTag(first.value)
        if (summary?.kind === "summary") {
          title = summary.text
          body = body.slice(1)
        }
      }
      const node: Expandable = { type: "expandable", title: title ?? "", open: frame.open.tag.open, children: body }
      return at(node, position)
    }
    const tag = frame.open.tag
    const line = frame.open.node.value
    switch (tag.name) {
      case "hint": {
        const style = attribute(tag, "style")?.value ?? "info"
        if (content === undefined || !hintStyles.includes(style as HintStyle)) return undefined
        const node: Hint = { type: "hint", style: style as HintStyle, children: content }
        return at(node, position)
      }
      case "tabs": {
        const tabs = children.filter((child): child is Tab => child.type === "tab")
        if (tabs.length !== children.length) return undefined
        const node: Tabs = { type: "tabs", children: tabs }
        return at(node, position)
      }
      case "tab": {
        if (content === undefined) return undefined
        const node: Tab = { type: "tab", title: attribute(tag, "title")?.value ?? "", children: content }
        return at(node, position)
      }
      case "stepper": {
        const steps = children.filter((child): child is Step => child.type === "step")
        if (steps.length !== children.length) return undefined
        const node: Stepper = { type: "stepper", children: steps }
        return at(node, position)
      }
      case "step": {
        if (content === undefined) return undefined
        const node: Step = { type: "step", children: content }
        return at(node, position)
      }
      case "columns": {
        const columns = children.filter((child): child is Column => child.type === "column")
        if (columns.length !== children.length) return undefined
        const node: Columns = { type: "columns", children: columns }
        return at(node, position)
      }
      case "column": {
        const width = attribute(tag, "width")?.value
        if (content === undefined) return undefined
        const node: Column = { type: "column", ...(width === undefined ? {} : { width }), children: content }
        return at(node, position)
      }
      case "code": {
        const code = children[0]
        if (children.length !== 1 || code?.type !== "code") return undefined
        const title = attribute(tag, "title")?.value
        const overflow = attribute(tag, "overflow")?.value
        const lineNumbers = attribute(tag, "lineNumbers")?.value
        const data: CodeData = {
          ...code.data,
          ...(title !== undefined ? { title } : {}),
          ...(overflow === "wrap" || overflow === "scroll" ? { overflow } : {}),
          ...(lineNumbers !== undefined ? { lineNumbers: lineNumbers !== "false" } : {})
        }
        return at({ ...code, data }, position)
      }
      case "content-ref":
      case "embed":
      case "file": {
        const url = attribute(tag, tag.name === "file" ? "src" : "url")
        if (url === undefined || content === undefined) return undefined
        const fields = { url: url.value, children: content }
        const node: ContentRef | Embed | FileBlock = at(
          tag.name === "content-ref"
            ? { type: "contentRef", ...fields }
            : tag.name === "embed"
            ? { type: "embed", ...fields }
            : { type: "file", ...fields },
          position
        )
        const where = urlSpan(frame.open.node, url, quoteOf(line, url))
        if (where !== undefined) parsed.tagUrls.set(node, where)
        return node
      }
      default:
        return undefined
    }
  }

  for (const child of children) {
    const tag = child.type === "html" && tags.has(child) ? readTag(child) : undefined
    if (tag === undefined) {
      output().push(child)
      continue
    }
    const opener = openerName(tag)
    if (opener !== undefined) {
      stack.push({ name: opener, open: tag, children: [] })
      continue
    }
    const closer = closerName(tag)
    const index = closer === undefined ? -1 : lastIndex(stack, closer)
    if (index === -1) {
      output().push(standalone(tag, parsed) ?? child)
      continue
    }
    while (stack.length > index + 1) unwind(stack.pop() as Frame)
    const frame = stack.pop() as Frame
    const node = build(frame, tag.node, frame.children)
    output().push(...(node === undefined ? [frame.open.node, ...frame.children, tag.node] : [node]))
  }
  while (stack.length > 0) unwind(stack.pop() as Frame)
  return root
}

const lastIndex = (stack: ReadonlyArray<Frame>, name: string | undefined) => {
  for (let index = stack.length - 1; index >= 0; index--) if (stack[index]?.name === name) return index
  return -1
}

const readTag = (node: Html): Tag | undefined => {
  if (node.value.startsWith("{%")) {
    const tag = readLiquid(node.value)
    return tag === undefined ? undefined : { kind: "liquid", node, tag }
  }
  const tag = readHtmlTag(node.value)
  return tag === undefined ? undefined : { kind: "html", node, tag }
}

const openerName = (tag: Tag): string | undefined => {
  if (tag.kind === "html") return tag.tag.kind === "details" ? "details" : undefined
  return paired.has(tag.tag.name) ? tag.tag.name : undefined
}

const closerName = (tag: Tag): string | undefined => {
  if (tag.kind === "html") return tag.tag.kind === "/details" ? "details" : undefined
  return tag.tag.name.startsWith("end") ? tag.tag.name.slice(3) : undefined
}

/** Tags that stand alone: `{% include "…" %}` and figures. */
const standalone = (tag: Tag, parsed: Parsed): RootContent | undefined => {
  const position = tag.node.position
  if (tag.kind === "liquid" && tag.tag.name === "include") {
    const path = tag.tag.args[0]?.value ?? tag.tag.attributes.get("path")?.value
    const node: Include | undefined = path === undefined ? undefined : { type: "include", path }
    return node === undefined ? undefined : at(node, position)
  }
  if (tag.kind === "html" && tag.tag.kind === "figure") {
    const { url, alt, caption, width } = tag.tag
    const node: Figure = at({ type: "figure", url, alt, caption, ...(width === undefined ? {} : { width }) }, position)
    const offset = position?.start.offset
    if (offset !== undefined) {
      parsed.tagUrls.set(node, { start: offset + tag.tag.src.start, end: offset + tag.tag.src.end, quote: tag.tag.src.quote })
    }
    return node
  }
  return undefined
}

/** `title="…"` in a fence's meta becomes the code's title, as GitBook's `{% code title %}` does. */
const codeTitle = (code: Code) => {
  if (code.meta === null || code.meta === undefined || code.data?.title !== undefined) return
  const found = readMetaTitle(code.meta)
  if (found === undefined) return
  code.meta = found.rest === "" ? null : found.rest
  code.data = { ...code.data, title: found.title }
}

// Nodes whose children are flow content, where tag lines can occur.
const flowParents = new Set([
  "blockquote",
  "list",
  "listItem",
  "footnoteDefinition",
  "hint",
  "tabs",
  "tab",
  "embed",
  "contentRef",
  "file",
  "expandable",
  "stepper",
  "step",
  "columns",
  "column"
])

const walk = (parent: Parent, tags: WeakSet<Nodes>, parsed: Parsed) => {
  parent.children = assemble(parent.children, tags, parsed)
  for (const child of parent.children) {
    if (child.type === "code") codeTitle(child)
    else if (flowParents.has(child.type) && "children" in child) walk(child, tags, parsed)
  }
}

/** Parses GitBook markdown once, keeping where urls sit in the source. */
export const parseWithSpans = (markdown: string): Parsed => {
  const marks: Marks = { tags: new WeakSet(), destinations: new WeakMap() }
  const tree = fromMarkdown(markdown, {
    extensions: [frontmatter(["yaml"]), gfm(), math({ singleDollarTextMath: false }), gitbookTags],
    mdastExtensions: [frontmatterFromMarkdown(["yaml"]), gfmFromMarkdown(), mathFromMarkdown(), gitbookTagsFromMarkdown(marks)]
  })
  const parsed: Parsed = { tree, destinations: marks.destinations, tagUrls: new WeakMap() }
  walk(tree, marks.tags, parsed)
  return parsed
}

/**
 * GitBook markdown as mdast: GFM, YAML front matter, math, and GitBook's blocks (hints, tabs, steppers,
 * columns, code titles, embeds, content refs, files, includes, expandables, figures) as custom nodes whose
 * content is parsed markdown. Unknown tags and HTML stay as `html` nodes, verbatim.
 */
export const parse = (markdown: string): Root => parseWithSpans(markdown).tree
