// GitBook's JSON document (`JSONDocument` in its OpenAPI) from markdown and back, through one mdast.
//
// GitBook's schema says which blocks each block may hold (a hint holds no code, a quote no list of
// tabs…). A markdown block that its place cannot hold is turned into the nearest thing it can hold,
// never dropped: a hint becomes a quote or its content, tabs and expandables their titles (in bold)
// and content, an embed or a content ref a link, images inline images, math inline math. What the
// document cannot express at all (unknown HTML, unknown tags, includes, footnotes, a table where
// none may be) is kept as its markdown source: a code block (`html` or `markdown`) where code may
// be, else a paragraph of its lines in code marks. Front matter is not content: `readPage` reads it.
import type { Element, ElementContent } from "hast"
import { fromHtml } from "hast-util-from-html"
import { toHtml } from "hast-util-to-html"
import { toMdast } from "hast-util-to-mdast"
import type { Code, CodeData, Definition, Html, List, ListItem, Nodes, PhrasingContent, Root, RootContent, Table, TableCell } from "mdast"
import { toHast } from "mdast-util-to-hast"
import { lineOf } from "./html/tree.js"
import type { FlowContent, HintStyle } from "./nodes.js"
import { hintStyles } from "./nodes.js"
import { parse } from "./parse.js"
import { stringify } from "./stringify.js"
import { figureHtml } from "./tags.js"
import { textOf } from "./text.js"

// The document's types: what this module writes, and what it reads (any of GitBook's blocks).

export type DocumentContentRef =
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "page"; readonly page: string; readonly space?: string }
  | { readonly kind: "anchor"; readonly anchor: string; readonly page?: string; readonly space?: string }
  | { readonly kind: "file"; readonly file: string; readonly space?: string }
  | { readonly kind: string; readonly [key: string]: unknown }

export type MarkType = "bold" | "italic" | "strikethrough" | "code"

export interface DocumentMark {
  readonly object: "mark"
  readonly type: MarkType | (string & {})
  readonly data?: Readonly<Record<string, unknown>>
}

export interface DocumentLeaf {
  readonly object: "leaf"
  readonly text: string
  readonly marks: ReadonlyArray<DocumentMark>
}

export interface DocumentText {
  readonly object: "text"
  readonly leaves: ReadonlyArray<DocumentLeaf>
  readonly key?: string
}

export interface DocumentInline {
  readonly object: "inline"
  /** `link`, `inline-image`, `inline-math`, and GitBook's others (read as their text). */
  readonly type: string
  readonly data?: Readonly<Record<string, unknown>>
  readonly nodes?: ReadonlyArray<DocumentText | DocumentInline>
  readonly isVoid?: boolean
  readonly key?: string
}

export interface DocumentFragment {
  readonly object: "fragment"
  readonly fragment: string
  readonly type?: string
  readonly nodes: ReadonlyArray<DocumentBlock>
  readonly key?: string
}

export interface DocumentBlock {
  readonly object: "block"
  readonly type: string
  readonly data?: Readonly<Record<string, unknown>>
  readonly nodes?: ReadonlyArray<DocumentBlock | DocumentInline | DocumentText>
  readonly fragments?: ReadonlyArray<DocumentFragment>
  readonly isVoid?: boolean
  readonly key?: string
}

export interface JSONDocument {
  readonly object: "document"
  readonly data: Readonly<Record<string, unknown>>
  readonly nodes: ReadonlyArray<DocumentBlock>
}

// Links.

const filePath = /^\/files\/([^/?#\s]+)$/
const pagePath = /^\/pages\/([^/?#\s]+)(?:#(.*))?$/

/** `/pages/<id>[#anchor]`, `/files/<id>`, `#anchor`, or any other url. */
export const refOf = (url: string): DocumentContentRef => {
  const file = filePath.exec(url)
  if (file?.[1] !== undefined) return { kind: "file", file: file[1] }
  const page = pagePath.exec(url)
  if (page?.[1] !== undefined)
    return page[2] !== undefined
      ? { kind: "anchor", anchor: page[2], page: page[1] }
      : { kind: "page", page: page[1] }
  if (url.startsWith("#")) return { kind: "anchor", anchor: url.slice(1) }
  return { kind: "url", url }
}

const field = (ref: DocumentContentRef, key: string): string | undefined => {
  const value = (ref as Readonly<Record<string, unknown>>)[key]
  return typeof value === "string" ? value : undefined
}

/** The url of a content ref; refs to things that have no url here read as a url of their kind. */
export const urlOf = (ref: DocumentContentRef): string => {
  const anchor = field(ref, "anchor")
  const page = field(ref, "page")
  switch (ref.kind) {
    case "url":
      return field(ref, "url") ?? ""
    case "file":
      return `/files/${field(ref, "file") ?? ""}`
    case "page":
    case "anchor":
      return page !== undefined ? `/pages/${page}${anchor !== undefined ? `#${anchor}` : ""}` : `#${anchor ?? ""}`
    default: {
      const id = field(ref, ref.kind) ?? field(ref, "id") ?? ""
      return `/${ref.kind}s/${id}`
    }
  }
}

/** Images refer to a url or a file only. */
const imageRefOf = (url: string): DocumentContentRef => {
  const ref = refOf(url)
  return ref.kind === "file" ? ref : { kind: "url", url }
}

// Markdown to document.

type Where = "document" | "hint" | "quote" | "item" | "tab" | "expandable" | "step" | "column"

const essentials = ["paragraph", "heading-1", "heading-2", "heading-3", "list-ordered", "list-unordered", "list-tasks", "divider"]

/** The blocks each place may hold, as GitBook's schema says. */
const holds: Record<Where, ReadonlySet<string>> = {
  document: new Set([
    ...essentials,
    "blockquote",
    "hint",
    "images",
    "file",
    "embed",
    "code",
    "math",
    "expandable",
    "tabs",
    "table",
    "content-ref",
    "stepper",
    "columns"
  ]),
  hint: new Set([...essentials, "embed", "table"]),
  quote: new Set([...essentials, "blockquote"]),
  item: new Set([...essentials, "code", "hint", "blockquote", "math", "table"]),
  tab: new Set([...essentials, "content-ref", "code", "embed", "file", "images", "hint", "blockquote", "math"]),
  expandable: new Set([...essentials, "file", "images", "code", "table", "hint", "blockquote"]),
  step: new Set([...essentials, "content-ref", "code", "embed", "file", "images", "hint", "blockquote", "math", "expandable"]),
  column: new Set([
    ...essentials,
    "images",
    "code",
    "hint",
    "content-ref",
    "embed",
    "file",
    "math",
    "blockquote",
    "table",
    "expandable",
    "stepper"
  ])
}

const markOrder: ReadonlyArray<MarkType> = ["bold", "italic", "strikethrough", "code"]

type Inline = DocumentText | DocumentInline

const textNode = (leaves: ReadonlyArray<DocumentLeaf>): DocumentText => ({ object: "text", leaves })
const leaf = (text: string, marks: ReadonlyArray<MarkType> = []): DocumentLeaf => ({
  object: "leaf",
  text,
  marks: markOrder.filter((mark) => marks.includes(mark)).map((type) => ({ object: "mark", type }))
})
const emptyText = (): DocumentText => textNode([leaf("")])

const block = (
  type: string,
  nodes: ReadonlyArray<DocumentBlock | Inline>,
  data: Readonly<Record<string, unknown>> = {}
): DocumentBlock => ({
  object: "block",
  type,
  isVoid: false,
  data,
  nodes
})

const voidBlock = (type: string, data: Readonly<Record<string, unknown>>, fragments?: ReadonlyArray<DocumentFragment>): DocumentBlock => ({
  object: "block",
  type,
  isVoid: true,
  data,
  ...(fragments !== undefined ? { fragments } : {})
})

const paragraph = (nodes: ReadonlyArray<Inline>): DocumentBlock => block("paragraph", nodes.length === 0 ? [emptyText()] : nodes)

interface Context {
  readonly definitions: ReadonlyMap<string, string>
}

/** Inline content as texts (leaves merged where their marks are the same) and inlines. */
class InlineWriter {
  private readonly nodes: Array<Inline> = []
  private leaves: Array<DocumentLeaf> = []

  text(value: string, marks: ReadonlyArray<MarkType>) {
    if (value === "") return
    const next = leaf(value, marks)
    const last = this.leaves[this.leaves.length - 1]
    if (last !== undefined && sameMarks(last, next)) this.leaves[this.leaves.length - 1] = { ...last, text: last.text + value }
    else this.leaves.push(next)
  }

  inline(node: DocumentInline) {
    this.flush()
    this.nodes.push(node)
  }

  done(): Array<Inline> {
    this.flush()
    return this.nodes
  }

  private flush() {
    if (this.leaves.length > 0) this.nodes.push(textNode(this.leaves))
    this.leaves = []
  }
}

const sameMarks = (a: DocumentLeaf, b: DocumentLeaf) =>
  a.marks.length === b.marks.length && a.marks.every((mark, index) => mark.type === b.marks[index]?.type)

const lineBreak = /^<br\s*\/?>$/i

const inlineImage = (url: string, alt: string | null | undefined, caption?: string): DocumentInline => ({
  object: "inline",
  type: "inline-image",
  isVoid: true,
  data: { ref: imageRefOf(url), ...(alt ? { alt } : {}), ...(caption ? { caption } : {}) }
})

/** The Font Awesome name of an icon's element as GitBook writes it: `<i class="fa-rocket">`. */
const iconName = (html: string): string | undefined => {
  const classes = /^<i\s+class=(?:"([^"]*)"|'([^']*)')\s*>$/i.exec(html.trim())
  const names = (classes?.[1] ?? classes?.[2] ?? "").split(/\s+/)
  return names.find((name) => name.startsWith("fa-") && !/^fa-(?:solid|regular|brands|light|thin|duotone)$/.test(name))?.slice(3)
}

const previousIcon = (children: ReadonlyArray<PhrasingContent>, close: PhrasingContent): boolean => {
  const before = children[children.indexOf(close) - 1]
  return before?.type === "html" && iconName(before.value) !== undefined
}

const writeInlines = (
  children: ReadonlyArray<PhrasingContent>,
  marks: ReadonlyArray<MarkType>,
  context: Context,
  out: InlineWriter,
  inLink: boolean
) => {
  for (const child of children) {
    switch (child.type) {
      case "text":
        out.text(child.value, marks)
        break
      case "emphasis":
      case "strong":
      case "delete":
        writeInlines(
          child.children,
          [...marks, child.type === "emphasis" ? "italic" : child.type === "strong" ? "bold" : "strikethrough"],
          context,
          out,
          inLink
        )
        break
      case "inlineCode":
        out.text(child.value, [...marks, "code"])
        break
      case "break":
        out.text("\n", marks)
        break
      case "html": {
        const icon = iconName(child.value)
        if (icon !== undefined) out.inline({ object: "inline", type: "icon", isVoid: true, data: { icon } })
        // The end of an icon's element, which holds nothing.
        else if (!(child.value.trim() === "</i>" && previousIcon(children, child))) {
          out.text(lineBreak.test(child.value.trim()) ? "\n" : child.value, marks)
        }
        break
      }
      case "inlineMath":
        // A link holds texts and images only: math in a link is kept as its formula.
        if (inLink) out.text(child.value, marks)
        else out.inline({ object: "inline", type: "inline-math", isVoid: true, data: { formula: child.value } })
        break
      case "image":
        out.inline(inlineImage(child.url, child.alt))
        break
      case "imageReference": {
        const url = context.definitions.get(child.identifier)
        if (url !== undefined) out.inline(inlineImage(url, child.alt))
        else out.text(child.alt ?? "", marks)
        break
      }
      case "link":
      case "linkReference": {
        const url = child.type === "link" ? child.url : context.definitions.get(child.identifier)
        if (url === undefined || inLink) {
          writeInlines(child.children, marks, context, out, inLink)
          break
        }
        const inner = new InlineWriter()
        writeInlines(child.children, marks, context, inner, true)
        const nodes = inner.done()
        out.inline({ object: "inline", type: "link", data: { ref: refOf(url) }, nodes: nodes.length === 0 ? [emptyText()] : nodes })
        break
      }
      case "footnoteReference":
        out.text(`[^${child.label ?? child.identifier}]`, marks)
        break
    }
  }
}

const inlines = (children: ReadonlyArray<PhrasingContent>, context: Context): Array<Inline> => {
  const out = new InlineWriter()
  writeInlines(children, [], context, out, false)
  return out.done()
}

const boldParagraph = (text: string): Array<DocumentBlock> => text.trim() === "" ? [] : [paragraph([textNode([leaf(text, ["bold"])])])]

/** Markdown source the document cannot express: code where code may be, else lines in code marks. */
const raw = (source: string, syntax: string, where: Where): Array<DocumentBlock> => {
  const lines = source.replace(/\r\n?/g, "\n").replace(/\n+$/, "").split("\n")
  if (holds[where].has("code")) return [codeBlock(lines, { syntax })]
  const kept = lines.map((line) => line.trim()).filter((line) => line !== "")
  if (kept.length === 0) return []
  return [paragraph([textNode(kept.flatMap((line, index) => index === 0 ? [leaf(line, ["code"])] : [leaf("\n"), leaf(line, ["code"])]))])]
}

const codeBlock = (lines: ReadonlyArray<string>, data: Readonly<Record<string, unknown>>): DocumentBlock =>
  block("code", lines.map((line) => block("code-line", [textNode([leaf(line)])])), data)

const codeData = (node: Code) => ({
  ...(node.lang ? { syntax: node.lang } : {}),
  ...(node.data?.title !== undefined ? { title: node.data.title } : {}),
  ...(node.data?.overflow !== undefined ? { overflow: node.data.overflow } : {}),
  ...(node.data?.lineNumbers !== undefined ? { lineNumbers: node.data.lineNumbers } : {})
})

const caption = (text: string): Array<DocumentFragment> =>
  text.trim() === "" ? [] : [{ object: "fragment", fragment: "caption", nodes: [paragraph([textNode([leaf(text)])])] }]

const image = (url: string, alt: string | null | undefined, captionText: string): DocumentBlock =>
  voidBlock("image", { ref: imageRefOf(url), ...(alt ? { alt } : {}) }, caption(captionText))

/** A block that must hold something holds an empty paragraph. */
const nonEmpty = (nodes: Array<DocumentBlock>): Array<DocumentBlock> => nodes.length === 0 ? [paragraph([])] : nodes

/** A column's width (`50%`, `200px`) as GitBook's length; undefined when it does not read as one. */
const lengthOf = (width: string | undefined): { readonly value: number; readonly unit: string } | undefined => {
  const found = width === undefined ? undefined : /^\s*(\d+(?:\.\d+)?)\s*(%|[a-z]+)\s*$/i.exec(width)
  return found === undefined || found === null ? undefined : { value: Number(found[1]), unit: found[2] as string }
}

/** Where a list of sibling blocks is, the blocks of the document they make. */
const blocks = (children: ReadonlyArray<RootContent>, where: Where, context: Context): Array<DocumentBlock> =>
  children.flatMap((child) => blockOf(child, where, context))

const isBlank = (node: PhrasingContent) => (node.type === "text" && node.value.trim() === "") || node.type === "break"

const listBlock = (node: List, context: Context): DocumentBlock => {
  const tasks = node.children.some((item) => typeof item.checked === "boolean")
  const items = node.children.map((item: ListItem) =>
    block("list-item", blocks(item.children, "item", context), tasks ? { checked: item.checked === true } : {})
  )
  if (tasks) return block("list-tasks", items)
  if (node.ordered) return block("list-ordered", items, typeof node.start === "number" && node.start !== 1 ? { start: node.start } : {})
  return block("list-unordered", items)
}

/** Column ids, record ids and order indexes of a table: stable, so a table reads back as it was. */
export const tableIds = {
  column: (index: number) => `c${index}`,
  record: (index: number) => `r${index}`,
  fragment: (record: string, column: string) => `${record}-${column}`,
  order: (index: number, count: number) => String(index).padStart(String(Math.max(count - 1, 0)).length, "0")
}

const tableBlock = (node: Table, context: Context): DocumentBlock => {
  const [header, ...rows] = node.children
  const headerCells = header?.children ?? []
  const columns = headerCells.map((_, index) => tableIds.column(index))
  const definition: Record<string, unknown> = {}
  headerCells.forEach((cell: TableCell, index) => {
    const id = tableIds.column(index)
    const align = node.align?.[index]
    definition[id] = { id, title: textOf(cell), type: "text", textAlignment: align === "center" || align === "right" ? align : "left" }
  })
  const records: Record<string, unknown> = {}
  const fragments: Array<DocumentFragment> = []
  rows.forEach((row, index) => {
    const record = tableIds.record(index)
    const values: Record<string, string> = {}
    columns.forEach((column, at) => {
      const fragment = tableIds.fragment(record, column)
      values[column] = fragment
      fragments.push({ object: "fragment", fragment, nodes: [paragraph(inlines(row.children[at]?.children ?? [], context))] })
    })
    records[record] = { orderIndex: tableIds.order(index, rows.length), values }
  })
  return {
    object: "block",
    type: "table",
    isVoid: true,
    data: { view: { type: "grid", columns, hideHeader: false }, records, definition },
    fragments
  }
}

// The HTML GitBook writes in markdown, as the blocks it stands for.

const shownChildren = (children: ReadonlyArray<ElementContent>): Array<ElementContent> =>
  children.filter((child) => child.type === "element" || (child.type === "text" && child.value.trim() !== ""))

const onlyElement = (children: ReadonlyArray<ElementContent>): Element | undefined => {
  const shown = shownChildren(children)
  return shown.length === 1 && shown[0]?.type === "element" ? shown[0] : undefined
}

const firstElement = (node: Element, name: string): Element | undefined => {
  for (const child of node.children) {
    if (child.type !== "element") continue
    if (child.tagName === name) return child
    const found = firstElement(child, name)
    if (found !== undefined) return found
  }
  return undefined
}

const property = (node: Element | undefined, name: string): string | undefined => {
  const value = node?.properties[name]
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined
}

const present = (node: Element, name: string): boolean => node.properties[name] !== undefined && node.properties[name] !== false

const alignOf = (node: Element): "center" | "left" | "right" | undefined => {
  const align = property(node, "align")?.toLowerCase()
  return align === "center" || align === "left" || align === "right" ? align : undefined
}

const textAlignment = { center: "center", left: "start", right: "end" } as const

/** An element's content as markdown phrasing: what the document's inlines are written from. */
const phrasingOfHtml = (children: Array<ElementContent>): Array<PhrasingContent> => {
  const tree = toMdast({ type: "root", children: [{ type: "element", tagName: "p", properties: {}, children }] }) as Root
  const first = tree.children[0]
  return first?.type === "paragraph" ? first.children : []
}

/** `<figure>` (or an `<img>` alone) in a frame or an aligned division, as an images block. */
const htmlImages = (element: Element, where: Where): DocumentBlock | undefined => {
  if (!holds[where].has("images")) return undefined
  const framed = element.tagName === "div" && property(element, "dataWithFrame") === "true"
  const align = element.tagName === "div" ? alignOf(element) : undefined
  const inner = element.tagName === "div" ? onlyElement(element.children) : element
  const img = inner?.tagName === "img" ? inner : inner?.tagName === "figure" ? firstElement(inner, "img") : undefined
  const src = property(img, "src")
  if (img === undefined || src === undefined || inner === undefined || (element.tagName === "div" && !framed && align === undefined)) {
    return undefined
  }
  const figcaption = inner.tagName === "figure" ? firstElement(inner, "figcaption") : undefined
  const width = Number(property(img, "width"))
  const alt = property(img, "alt")
  const data = { ref: imageRefOf(src), ...(alt ? { alt } : {}), ...(Number.isFinite(width) && width > 0 ? { width } : {}) }
  const captionText = figcaption === undefined ? "" : lineOf(figcaption)
  return block("images", [voidBlock("image", data, caption(captionText))], {
    ...(align !== undefined ? { align } : {}),
    ...(framed ? { withFrame: true } : {})
  })
}

const rowsIn = (table: Element, section: "thead" | "tbody"): Array<Element> =>
  table.children.flatMap((child) => {
    if (child.type !== "element") return []
    if (child.tagName === "tr") return section === "tbody" ? [child] : []
    return child.tagName === section ? child.children.filter((row): row is Element => row.type === "element" && row.tagName === "tr") : []
  })

const cellsIn = (row: Element): Array<Element> =>
  row.children.filter((cell): cell is Element => cell.type === "element" && (cell.tagName === "td" || cell.tagName === "th"))

/** A url a cell holds: its link's or image's, else its text. */
const cellUrl = (cell: Element): string | undefined => {
  const link = firstElement(cell, "a") ?? firstElement(cell, "img")
  const url = property(link, link?.tagName === "a" ? "href" : "src") ?? lineOf(cell)
  return url === "" ? undefined : url
}

/** An HTML table as a table block: a grid, or with `data-view="cards"` cards, their targets and covers in hidden columns. */
const htmlTable = (table: Element, context: Context): DocumentBlock => {
  const head = rowsIn(table, "thead")[0]
  const rows = rowsIn(table, "tbody")
  const headCells = head === undefined ? [] : cellsIn(head)
  const width = Math.max(headCells.length, ...rows.map((row) => cellsIn(row).length))
  const ids = Array.from({ length: width }, (_, index) => tableIds.column(index))
  const cards = property(table, "dataView") === "cards"
  const kindOf = (index: number) => {
    const th = headCells[index]
    if (cards && th !== undefined && present(th, "dataCardTarget")) return "target"
    if (cards && th !== undefined && present(th, "dataCardCover")) return "cover"
    return th !== undefined && present(th, "dataHidden") ? "hidden" : "text"
  }
  const definition: Record<string, unknown> = {}
  ids.forEach((id, index) => {
    const title = headCells[index] === undefined ? "" : lineOf(headCells[index] as Element)
    const kind = kindOf(index)
    definition[id] = kind === "target"
      ? { id, title, type: "content-ref" }
      : kind === "cover"
      ? { id, title, type: "image" }
      : { id, title, type: "text", textAlignment: "left" }
  })
  const records: Record<string, unknown> = {}
  const fragments: Array<DocumentFragment> = []
  rows.forEach((row, index) => {
    const record = tableIds.record(index)
    const values: Record<string, unknown> = {}
    const cells = cellsIn(row)
    ids.forEach((id, at) => {
      const cell = cells[at]
      const kind = kindOf(at)
      if (kind === "target" || kind === "cover") {
        const url = cell === undefined ? undefined : cellUrl(cell)
        // A cover as `{ ref }`: a bare file or url ref would match two of the schema's record values at once.
        if (url !== undefined) values[id] = kind === "target" ? refOf(url) : { ref: imageRefOf(url) }
        return
      }
      const fragment = tableIds.fragment(record, id)
      values[id] = fragment
      fragments.push({ object: "fragment", fragment, nodes: [paragraph(inlines(phrasingOfHtml(cell?.children ?? []), context))] })
    })
    records[record] = { orderIndex: tableIds.order(index, rows.length), values }
  })
  const shown = ids.filter((_, index) => kindOf(index) === "text")
  const target = ids.find((_, index) => kindOf(index) === "target")
  const cover = ids.find((_, index) => kindOf(index) === "cover")
  const view = cards
    ? {
      type: "cards",
      columns: shown,
      cardSize: property(table, "dataCardSize") === "large" ? "large" : "medium",
      ...(target !== undefined ? { targetDefinition: target } : {}),
      ...(cover !== undefined ? { coverDefinition: cover } : {})
    }
    : { type: "grid", columns: shown, hideHeader: present(table, "dataHeaderHidden") }
  return {
    object: "block",
    type: "table",
    isVoid: true,
    data: { view, records, definition, ...(property(table, "dataFullWidth") === "true" ? { fullWidth: true } : {}) },
    fragments
  }
}

/** An HTML block GitBook writes (a figure, a table, cards, an aligned heading or paragraph) as its block; undefined for other HTML. */
const htmlBlock = (html: string, where: Where, context: Context): Array<DocumentBlock> | undefined => {
  let element: Element | undefined
  try {
    element = onlyElement(fromHtml(html, { fragment: true }).children as Array<ElementContent>)
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
  if (element === undefined) return undefined
  const align = alignOf(element)
  const aligned = align === undefined ? {} : { align: textAlignment[align] }
  switch (element.tagName) {
    case "div":
    case "figure":
    case "img": {
      const images = htmlImages(element, where)
      return images === undefined ? undefined : [images]
    }
    case "table":
      return holds[where].has("table") ? [htmlTable(element, context)] : undefined
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6": {
      const level = Math.min(3, Number(element.tagName.slice(1)))
      return [block(`heading-${level}`, inlines(phrasingOfHtml(element.children), context), aligned)]
    }
    case "p": {
      const nodes = inlines(phrasingOfHtml(element.children), context)
      return [block("paragraph", nodes.length === 0 ? [emptyText()] : nodes, aligned)]
    }
    default:
      return undefined
  }
}

const blockOf = (node: RootContent, where: Where, context: Context): Array<DocumentBlock> => {
  const can = (type: string) => holds[where].has(type)
  switch (node.type) {
    case "paragraph": {
      const seen = node.children.filter((child) => !isBlank(child))
      // A paragraph of images only is an images block; a link to a file alone is a file block.
      if (seen.length > 0 && can("images") && seen.every((child) => child.type === "image" || child.type === "imageReference")) {
        const images = seen.flatMap((child) => {
          const url = child.type === "image" ? child.url : context.definitions.get(child.identifier)
          return url === undefined ? [] : [image(url, child.alt, "")]
        })
        if (images.length === seen.length) return [block("images", images)]
      }
      const only = seen[0]
      if (seen.length === 1 && only?.type === "link" && can("file")) {
        const ref = refOf(only.url)
        if (ref.kind === "file") return [voidBlock("file", { ref })]
      }
      return [paragraph(inlines(node.children, context))]
    }
    case "heading":
      return [block(`heading-${Math.min(node.depth, 3)}`, inlines(node.children, context))]
    case "thematicBreak":
      return [voidBlock("divider", {})]
    case "blockquote":
      return can("blockquote") ? [block("blockquote", blocks(node.children, "quote", context))] : blocks(node.children, where, context)
    case "list":
      return [listBlock(node, context)]
    case "code":
      if (can("code")) return [codeBlock(node.value.split("\n"), codeData(node))]
      return raw(node.value, "", where)
    case "math":
      if (can("math")) return [voidBlock("math", { formula: node.value })]
      // Where a math block cannot stand it becomes inline math on one line (TeX reads a line break as a space):
      // `$$` opening a line with more text after it would read back as a math block's fence and its meta.
      return [paragraph([{ object: "inline", type: "inline-math", isVoid: true, data: { formula: node.value.replace(/\s*\n\s*/g, " ") } }])]
    case "table":
      return can("table") ? [tableBlock(node, context)] : raw(stringify({ type: "root", children: [node] }), "markdown", where)
    case "html":
      return htmlBlock(node.value, where, context) ?? raw(node.value, "html", where)
    case "hint":
      if (can("hint")) return [block("hint", blocks(node.children, "hint", context), { style: node.style })]
      if (can("blockquote")) return [block("blockquote", blocks(node.children, "quote", context))]
      return blocks(node.children, where, context)
    case "tabs":
      if (can("tabs"))
        return [block("tabs", node.children.map((tab) => block("tabs-item", blocks(tab.children, "tab", context), { title: tab.title })))]
      return node.children.flatMap((tab) => [...boldParagraph(tab.title), ...blocks(tab.children, where, context)])
    case "stepper":
      if (can("stepper"))
        return [block("stepper", node.children.map((step) => block("stepper-step", nonEmpty(blocks(step.children, "step", context)))))]
      return node.children.flatMap((step) => blocks(step.children, where, context))
    case "columns":
      if (can("columns")) {
        return [
          block(
            "columns",
            node.children.map((column) => {
              const width = lengthOf(column.width)
              return block("column", nonEmpty(blocks(column.children, "column", context)), width === undefined ? {} : { width })
            })
          )
        ]
      }
      return node.children.flatMap((column) => blocks(column.children, where, context))
    case "expandable": {
      if (!can("expandable")) return [...boldParagraph(node.title), ...blocks(node.children, where, context)]
      const body = blocks(node.children, "expandable", context)
      return [
        voidBlock("expandable", node.open ? { defaultExpanded: true } : {}, [
          {
            object: "fragment",
            fragment: "expandable-title",
            type: "expandable-title",
            nodes: [paragraph(node.title === "" ? [] : [textNode([leaf(node.title)])])]
          },
          { object: "fragment", fragment: "expandable-body", type: "expandable-body", nodes: body.length === 0 ? [paragraph([])] : body }
        ])
      ]
    }
    case "embed": {
      const link = paragraph([{ object: "inline", type: "link", data: { ref: refOf(node.url) }, nodes: [textNode([leaf(node.url)])] }])
      return [can("embed") ? voidBlock("embed", { url: node.url }) : link, ...blocks(node.children, where, context)]
    }
    case "contentRef": {
      if (can("content-ref")) return [voidBlock("content-ref", { ref: refOf(node.url) })]
      const label = textOf({ type: "root", children: node.children })
      return [
        paragraph([{
          object: "inline",
          type: "link",
          data: { ref: refOf(node.url) },
          nodes: [textNode([leaf(label === "" ? node.url : label)])]
        }])
      ]
    }
    case "file": {
      const ref = refOf(node.url)
      const first = can("file") && ref.kind === "file"
        ? voidBlock("file", { ref })
        : paragraph([{ object: "inline", type: "link", data: { ref }, nodes: [textNode([leaf(node.url)])] }])
      return [first, ...blocks(node.children, where, context)]
    }
    case "figure":
      if (can("images")) {
        const width = Number(node.width)
        const images = image(node.url, node.alt, node.caption)
        return [block("images", [Number.isFinite(width) && width > 0 ? { ...images, data: { ...images.data, width } } : images])]
      }
      return [paragraph([inlineImage(node.url, node.alt, node.caption)])]
    case "definition":
    case "yaml":
      return []
    default:
      return raw(stringify({ type: "root", children: [node] }), "markdown", where)
  }
}

const definitionsOf = (tree: Root): Map<string, string> => {
  const definitions = new Map<string, string>()
  const visit = (node: Nodes) => {
    if (node.type === "definition" && !definitions.has(node.identifier)) definitions.set(node.identifier, (node as Definition).url)
    if ("children" in node) { for (const child of node.children) visit(child) }
  }
  visit(tree)
  return definitions
}

// Block keys. A top-level block's key is a hash of its type and its text, with the number of the
// blocks before it that hash alike: it stays while the block's text stays, wherever the block
// moves, and it changes when the text does. Comments name blocks by these keys.

/** The text a block holds, its fragments (captions, tabs, titles) included. */
const blockText = (node: DocumentBlock | Inline | DocumentFragment): string => {
  if (node.object === "text") return (node.leaves ?? []).map((each) => each.text).join("")
  const parts = (node.nodes ?? []).map((child) => blockText(child))
  if (node.object === "block") { for (const each of node.fragments ?? []) parts.push(blockText(each)) }
  return parts.join(node.object === "inline" ? "" : "\n")
}

/** FNV-1a over UTF-16 code units from `seed`, as 32 bits. */
const fnv = (text: string, seed: number): number => {
  let hash = seed >>> 0
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

const keyed = (nodes: ReadonlyArray<DocumentBlock>): Array<DocumentBlock> => {
  const seen = new Map<string, number>()
  return nodes.map((node) => {
    const text = `${node.type}\u0000${blockText(node)}`
    const hash = fnv(text, 0x811c9dc5).toString(36).padStart(7, "0") + fnv(text, 0x9747b28c).toString(36).padStart(7, "0")
    const repeat = seen.get(hash) ?? 0
    seen.set(hash, repeat + 1)
    return { ...node, key: repeat === 0 ? hash : `${hash}-${repeat}` }
  })
}

/** A page's markdown as GitBook's JSON document; valid against GitBook's `JSONDocument` schema. Top-level blocks carry their keys. */
export const toDocument = (markdown: string): JSONDocument => {
  const tree = parse(markdown)
  return { object: "document", data: {}, nodes: keyed(blocks(tree.children, "document", { definitions: definitionsOf(tree) })) }
}

/** A top-level block of a page: its key, its type and its text. */
export interface Block {
  readonly key: string
  readonly type: string
  readonly text: string
}

/** The top-level blocks of a page's markdown, in order, with the keys `toDocument` gives them. */
export const blocksOf = (markdown: string): Array<Block> =>
  toDocument(markdown).nodes.map((node) => ({ key: node.key ?? "", type: node.type, text: blockText(node).replace(/\s+/g, " ").trim() }))

// Document to markdown.

const record = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Readonly<Record<string, unknown>>) : {}

const stringOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

const isRef = (value: unknown): value is DocumentContentRef => typeof record(value)["kind"] === "string"

const leavesOf = (node: DocumentBlock | Inline): ReadonlyArray<DocumentLeaf> =>
  node.object === "text" ? node.leaves ?? [] : (node.nodes ?? []).flatMap((child) => leavesOf(child))

const plain = (nodes: ReadonlyArray<DocumentBlock | Inline>): string =>
  nodes.flatMap((node) => leavesOf(node)).map((each) => each.text).join("")

type Wrapper = "strong" | "emphasis" | "delete"
const wrappers: ReadonlyArray<readonly [MarkType, Wrapper]> = [["bold", "strong"], ["italic", "emphasis"], ["strikethrough", "delete"]]

/** A leaf as phrasing: its marks as nested nodes, bold outermost and code innermost. */
const leafPhrasing = (each: DocumentLeaf, inCell: boolean): Array<PhrasingContent> => {
  const types = new Set(each.marks.map((mark) => mark.type))
  const parts = inCell ? each.text.split("\n") : [each.text]
  let nodes: Array<PhrasingContent> = parts.flatMap((part, index): Array<PhrasingContent> => {
    const text: PhrasingContent = types.has("code") ? { type: "inlineCode", value: part } : { type: "text", value: part }
    return index === 0 ? [text] : [{ type: "html", value: "<br>" }, text]
  })
  for (const [mark, type] of [...wrappers].reverse()) {
    if (types.has(mark)) nodes = [{ type, children: nodes }]
  }
  return nodes
}

/** Adjacent nodes of the same mark become one, so that `**a *b***` is written as such. */
const merge = (nodes: ReadonlyArray<PhrasingContent>): Array<PhrasingContent> => {
  const out: Array<PhrasingContent> = []
  for (const node of nodes) {
    const last = out[out.length - 1]
    if (last?.type === "text" && node.type === "text") out[out.length - 1] = { type: "text", value: last.value + node.value }
    else if (
      last !== undefined && (last.type === "strong" || last.type === "emphasis" || last.type === "delete") && last.type === node.type
    ) {
      out[out.length - 1] = { type: last.type, children: merge([...last.children, ...node.children]) }
    } else out.push(node)
  }
  return out.filter((node) => !(node.type === "text" && node.value === ""))
}

const imageUrl = (data: Readonly<Record<string, unknown>>) => (isRef(data["ref"]) ? urlOf(data["ref"]) : "")

const phrasing = (nodes: ReadonlyArray<DocumentBlock | Inline>, inCell = false): Array<PhrasingContent> =>
  merge(nodes.flatMap((node): Array<PhrasingContent> => {
    if (node.object === "text") return (node.leaves ?? []).flatMap((each) => leafPhrasing(each, inCell))
    if (node.object !== "inline") return phrasing(node.nodes ?? [], inCell)
    const data = record(node.data)
    switch (node.type) {
      case "link": {
        const url = isRef(data["ref"]) ? urlOf(data["ref"]) : ""
        return [{ type: "link", url, children: phrasing(node.nodes ?? [], inCell) }]
      }
      case "inline-image":
        return [{ type: "image", url: imageUrl(data), alt: stringOf(data["alt"]) ?? "" }]
      case "inline-math":
        return [{ type: "inlineMath", value: stringOf(data["formula"]) ?? "" }]
      case "icon": {
        const icon = stringOf(data["icon"])
        return icon === undefined || !/^[a-z0-9-]+$/.test(icon) ? [] : [{ type: "html", value: `<i class="fa-${icon}"></i>` }]
      }
      default:
        return phrasing(node.nodes ?? [], inCell)
    }
  }))

const blockChildren = (node: DocumentBlock): ReadonlyArray<DocumentBlock> =>
  (node.nodes ?? []).filter((child): child is DocumentBlock => child.object === "block")

const fragment = (node: DocumentBlock, name: string): DocumentFragment | undefined => node.fragments?.find((each) => each.fragment === name)

const isEmptyParagraph = (node: FlowContent) =>
  node.type === "paragraph" && node.children.every((child) => child.type === "text" && child.value === "")

const flow = (nodes: ReadonlyArray<DocumentBlock>): Array<FlowContent> => nodes.flatMap(flowOf).filter((node) => !isEmptyParagraph(node))

const captionOf = (node: DocumentBlock) => plain(fragment(node, "caption")?.nodes ?? [])

/** A table cell's value, whatever its column's type. */
const cellOf = (table: DocumentBlock, type: string, value: unknown): Array<PhrasingContent> => {
  if (type === "text" && typeof value === "string") {
    const cell = fragment(table, value)?.nodes ?? []
    return cell.flatMap((each, index) =>
      index === 0 ? phrasing([each], true) : [{ type: "html", value: "<br>" }, ...phrasing([each], true)]
    )
  }
  if (isRef(value)) return [{ type: "link", url: urlOf(value), children: [{ type: "text", value: urlOf(value) }] }]
  if (Array.isArray(value)) return [{ type: "text", value: value.map(String).join(", ") }]
  if (typeof value === "number" || typeof value === "boolean") return [{ type: "text", value: String(value) }]
  return typeof value === "string" ? [{ type: "text", value }] : []
}

const tableOf = (node: DocumentBlock): Table => {
  const data = record(node.data)
  const definition = record(data["definition"])
  const view = record(data["view"])
  const columns = Array.isArray(view["columns"])
    ? view["columns"].filter((column): column is string => typeof column === "string")
    : Object.keys(definition)
  const records = Object.values(record(data["records"])).map(record).sort((a, b) => {
    const x = stringOf(a["orderIndex"]) ?? ""
    const y = stringOf(b["orderIndex"]) ?? ""
    return x < y ? -1 : x > y ? 1 : 0
  })
  const column = (id: string) => record(definition[id])
  return {
    type: "table",
    align: columns.map((id) => {
      const align = column(id)["textAlignment"]
      return align === "center" || align === "right" ? align : null
    }),
    children: [
      {
        type: "tableRow",
        children: columns.map((id) => ({ type: "tableCell", children: [{ type: "text", value: stringOf(column(id)["title"]) ?? "" }] }))
      },
      ...records.map((each) => ({
        type: "tableRow" as const,
        children: columns.map((id) => ({
          type: "tableCell" as const,
          children: cellOf(node, stringOf(column(id)["type"]) ?? "text", record(each["values"])[id])
        }))
      }))
    ]
  }
}

/** A cards table as GitBook writes it in markdown: an HTML table whose hidden columns hold each card's target and cover. */
const cardsOf = (node: DocumentBlock): Html => {
  const data = record(node.data)
  const view = record(data["view"])
  const definition = record(data["definition"])
  const shown = Array.isArray(view["columns"]) ? view["columns"].filter((id): id is string => typeof id === "string") : []
  const target = stringOf(view["targetDefinition"])
  const cover = stringOf(view["coverDefinition"])
  const records = Object.values(record(data["records"])).map(record).sort((a, b) => {
    const x = stringOf(a["orderIndex"]) ?? ""
    const y = stringOf(b["orderIndex"]) ?? ""
    return x < y ? -1 : x > y ? 1 : 0
  })
  const cellHtml = (children: Array<PhrasingContent>) =>
    toHtml(toHast({ type: "paragraph", children }) as Element).replace(/^<p>|<\/p>$/g, "")
  const linkHtml = (value: unknown) => {
    const ref = isRef(value) ? value : record(value)["ref"]
    const url = isRef(ref) ? urlOf(ref) : typeof value === "string" ? value : ""
    return url === "" ? "" : cellHtml([{ type: "link", url, children: [{ type: "text", value: url }] }])
  }
  const head = [
    ...shown.map(() => "<th></th>"),
    ...(target === undefined ? [] : ["<th data-hidden data-card-target data-type=\"content-ref\"></th>"]),
    ...(cover === undefined ? [] : ["<th data-hidden data-card-cover data-type=\"files\"></th>"])
  ].join("")
  const rows = records.map((each) => {
    const values = record(each["values"])
    const cells = [
      ...shown.map((id) => cellHtml(cellOf(node, stringOf(record(definition[id])["type"]) ?? "text", values[id]))),
      ...(target === undefined ? [] : [linkHtml(values[target])]),
      ...(cover === undefined ? [] : [linkHtml(values[cover])])
    ]
    return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join("")}</tr>`
  })
  const size = view["cardSize"] === "large" ? " data-card-size=\"large\"" : ""
  return { type: "html", value: `<table data-view="cards"${size}><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>` }
}

const listItems = (node: DocumentBlock, tasks: boolean): Array<ListItem> =>
  blockChildren(node).map((item) => ({
    type: "listItem",
    spread: false,
    checked: tasks ? record(item.data)["checked"] === true : null,
    children: flow(blockChildren(item))
  }))

const flowOf = (node: DocumentBlock): Array<FlowContent> => {
  const data = record(node.data)
  switch (node.type) {
    case "paragraph": {
      const children = phrasing(node.nodes ?? [])
      const only = children[0]
      const captioned = (node.nodes ?? []).find((child): child is DocumentInline =>
        child.object === "inline" && child.type === "inline-image"
      )
      const text = captioned !== undefined ? stringOf(record(captioned.data)["caption"]) : undefined
      // An image alone with a caption is a figure, the only way markdown has to caption it.
      if (children.length === 1 && only?.type === "image" && text !== undefined && text !== "") {
        return [{ type: "figure", url: only.url, alt: only.alt ?? "", caption: text }]
      }
      return [{ type: "paragraph", children }]
    }
    case "heading-1":
    case "heading-2":
    case "heading-3":
      return [{ type: "heading", depth: Number(node.type.slice(-1)) as 1 | 2 | 3, children: phrasing(node.nodes ?? []) }]
    case "list-ordered": {
      const start = typeof data["start"] === "number" ? data["start"] : 1
      return [{ type: "list", ordered: true, start, spread: false, children: listItems(node, false) }]
    }
    case "list-unordered":
    case "list-tasks":
      return [{ type: "list", ordered: false, spread: false, children: listItems(node, node.type === "list-tasks") }]
    case "divider":
      return [{ type: "thematicBreak" }]
    case "blockquote":
      return [{ type: "blockquote", children: flow(blockChildren(node)) }]
    case "hint": {
      const style = hintStyles.includes(data["style"] as HintStyle) ? (data["style"] as HintStyle) : "info"
      return [{ type: "hint", style, children: flow(blockChildren(node)) }]
    }
    case "code": {
      const title = stringOf(data["title"])
      const overflow = data["overflow"]
      const lineNumbers = data["lineNumbers"]
      const codeData: CodeData = {
        ...(title !== undefined ? { title } : {}),
        ...(overflow === "wrap" || overflow === "scroll" ? { overflow } : {}),
        ...(typeof lineNumbers === "boolean" ? { lineNumbers } : {})
      }
      const code: Code = {
        type: "code",
        lang: stringOf(data["syntax"]) || null,
        meta: null,
        value: blockChildren(node).map((line) => plain(line.nodes ?? [])).join("\n"),
        ...(Object.keys(codeData).length > 0 ? { data: codeData } : {})
      }
      return [code]
    }
    case "math":
      return [{ type: "math", value: stringOf(data["formula"]) ?? "" }]
    case "images": {
      const images = blockChildren(node)
      const framed = data["withFrame"] === true
      const align = data["align"] === "left" || data["align"] === "right" || data["align"] === "center" ? data["align"] : undefined
      // A frame or an alignment is said the way GitBook says it: a division around the figure.
      if (images.length === 1 && (framed || align !== undefined)) {
        const only = images[0] as DocumentBlock
        const width = record(only.data)["width"]
        const figure = figureHtml(
          imageUrl(record(only.data)),
          stringOf(record(only.data)["alt"]) ?? "",
          captionOf(only),
          typeof width === "number" ? String(width) : undefined
        )
        const attributes = `${framed ? " data-with-frame=\"true\"" : ""}${align !== undefined ? ` align="${align}"` : ""}`
        return [{ type: "html", value: `<div${attributes}>${figure}</div>` }]
      }
      const captioned = images.some((each) => captionOf(each) !== "")
      if (captioned) {
        return images.map((each) => {
          const width = record(each.data)["width"]
          return {
            type: "figure",
            url: imageUrl(record(each.data)),
            alt: stringOf(record(each.data)["alt"]) ?? "",
            caption: captionOf(each),
            ...(typeof width === "number" ? { width: String(width) } : {})
          }
        })
      }
      const children = images.flatMap((each, index): Array<PhrasingContent> => {
        const img: PhrasingContent = { type: "image", url: imageUrl(record(each.data)), alt: stringOf(record(each.data)["alt"]) ?? "" }
        return index === 0 ? [img] : [{ type: "text", value: " " }, img]
      })
      return [{ type: "paragraph", children }]
    }
    case "file": {
      const ref = data["ref"]
      if (!isRef(ref)) return []
      const url = urlOf(ref)
      return [{ type: "paragraph", children: [{ type: "link", url, children: [{ type: "text", value: field(ref, "file") ?? url }] }] }]
    }
    case "embed":
      return [{ type: "embed", url: stringOf(data["url"]) ?? "", children: [] }]
    case "content-ref":
      return isRef(data["ref"]) ? [{ type: "contentRef", url: urlOf(data["ref"]), children: [] }] : []
    case "expandable":
      return [{
        type: "expandable",
        title: plain(fragment(node, "expandable-title")?.nodes ?? []),
        open: data["defaultExpanded"] === true,
        children: flow(fragment(node, "expandable-body")?.nodes ?? [])
      }]
    case "tabs":
      return [{
        type: "tabs",
        children: blockChildren(node).map((tab) => ({
          type: "tab",
          title: stringOf(record(tab.data)["title"]) ?? "",
          children: flow(blockChildren(tab))
        }))
      }]
    case "stepper":
      return [{ type: "stepper", children: blockChildren(node).map((step) => ({ type: "step", children: flow(blockChildren(step)) })) }]
    case "columns":
      return [{
        type: "columns",
        children: blockChildren(node).map((column) => {
          const width = record(record(column.data)["width"])
          const value = width["value"]
          const unit = stringOf(width["unit"])
          return {
            type: "column",
            ...(typeof value === "number" && unit !== undefined ? { width: `${value}${unit}` } : {}),
            children: flow(blockChildren(column))
          }
        })
      }]
    case "table":
      return record(record(node.data)["view"])["type"] === "cards" ? [cardsOf(node)] : [tableOf(node)]
    default:
      // A block this module does not write (GitBook has more) gives what it holds.
      return [...flow(blockChildren(node)), ...flow((node.fragments ?? []).flatMap((each) => each.nodes))]
  }
}

/** GitBook's JSON document as GitBook markdown. */
export const fromDocument = (document: JSONDocument): string => stringify({ type: "root", children: flow(document.nodes ?? []) })
