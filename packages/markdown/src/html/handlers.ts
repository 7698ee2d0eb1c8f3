import type { Element, RootContent as HastContent } from "hast"
import { defaultHandlers, type Handle, type State } from "hast-util-to-mdast"
import { toText } from "hast-util-to-text"
import type { Heading, Link, Paragraph, PhrasingContent, RootContent, Table, TableCell, Text } from "mdast"
import { phrasing } from "mdast-util-phrasing"
import { toString } from "mdast-util-to-string"
import { visit } from "unist-util-visit"
import { collapse, lineOf, MAX_COLUMNS, stringProperty, walk } from "./tree.js"

/** An absolute URL for a reference in the page, or undefined when it is not one. */
export type Resolve = (reference: string) => URL | undefined

/** The most cells (rows × columns) a table is written as a grid; past this, a paragraph a row. */
const MAX_CELLS = 10_000
/** The most characters a grid is written with: `stringify` pads every cell to its column's widest. */
const MAX_GRID_TEXT = 1_000_000

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:", "tel:", "ftp:"])
export const isWeb = (url: URL): boolean => url.protocol === "http:" || url.protocol === "https:"

export const text = (value: string): Text => ({ type: "text", value })

/** Whether content shows anything: an image, a rule, code, or text that is not only whitespace. */
export const visible = (nodes: ReadonlyArray<RootContent>): boolean =>
  nodes.some((node) =>
    node.type === "image" || node.type === "thematicBreak" || node.type === "code" || (node.type === "inlineCode" && node.value !== "") ||
    (node.type === "text" ? node.value.trim() !== "" : "children" in node && visible(node.children))
  )

/** Content as phrasing, blocks apart by spaces: what a link or a table cell can hold. */
export const phrasingOf = (nodes: ReadonlyArray<RootContent>): Array<PhrasingContent> =>
  nodes.flatMap((node): Array<PhrasingContent> => {
    if (phrasing(node)) return [node]
    if (node.type === "code") return [text(" "), { type: "inlineCode", value: collapse(node.value).trim() }, text(" ")]
    if ("children" in node) return [text(" "), ...phrasingOf(node.children), text(" ")]
    return []
  })

const named = (name: string) => (node: HastContent): node is Element => node.type === "element" && node.tagName === name

const rowsOf = (table: Element): Array<Element> =>
  table.children.flatMap((child) => {
    if (child.type !== "element") return []
    if (child.tagName === "tr") return [child]
    return ["thead", "tbody", "tfoot"].includes(child.tagName) ? child.children.filter(named("tr")) : []
  })

const cellsOf = (row: Element): Array<Element> => row.children.filter((child) => named("td")(child) || named("th")(child))

/** How many cells a table's grid holds: its rows with a cell, times its widest row, spans counted (`prepare` bounds them). */
const gridSize = (rows: ReadonlyArray<Element>): number => {
  // For each column, how many more rows a cell above still covers.
  const covered: Array<number> = []
  let width = 0
  let filled = 0
  for (const row of rows) {
    let column = 0
    const skipCovered = () => {
      while ((covered[column] ?? 0) > 0) {
        covered[column] = (covered[column] ?? 1) - 1
        column++
      }
    }
    for (const cell of cellsOf(row)) {
      skipCovered()
      const rowSpan = Number(cell.properties.rowSpan)
      for (let i = 0; i < Number(cell.properties.colSpan); i++) {
        if (rowSpan > 1) covered[column] = rowSpan - 1
        column++
      }
    }
    skipCovered()
    for (let rest = column; rest < covered.length; rest++) {
      if ((covered[rest] ?? 0) > 0) {
        covered[rest] = (covered[rest] ?? 1) - 1
        column = rest + 1
      }
    }
    if (column > 0) filled++
    width = Math.max(width, column)
  }
  return filled * width
}

const holdsTable = (table: Element): boolean => {
  let found = false
  walk(table, (node) => {
    if (named("table")(node)) found = true
    return !found && node.type === "element"
  })
  return found
}

const paragraph = (children: Array<PhrasingContent>): Array<Paragraph> => visible(children) ? [{ type: "paragraph", children }] : []

/** A table's rows as paragraphs: the cells that show something, apart by " | ". */
const rowParagraphs = (rows: ReadonlyArray<ReadonlyArray<Array<PhrasingContent>>>): Array<Paragraph> =>
  rows.flatMap((cells) => paragraph(cells.filter(visible).flatMap((cell, i) => i === 0 ? cell : [text(" | "), ...cell])))

/** About how many characters a cell is written with: its text, the destinations of its links and images, its pipes. */
const widthOf = (cell: TableCell): number => {
  let width = toString(cell).length + 3
  visit(cell, (node) => {
    if (node.type === "link" || node.type === "image") width += node.url.length + 4
  })
  return width
}

const gridText = (table: Table): number => {
  const widths: Array<number> = []
  for (const row of table.children) row.children.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, widthOf(cell))))
  return table.children.length * widths.reduce((sum, width) => sum + width, 1)
}

const languageOf = (element: Element | undefined): string | undefined => {
  const classes = element?.properties.className
  for (const name of Array.isArray(classes) ? classes : []) {
    const language = /^(?:language|lang)-([^`\s]+)$/i.exec(String(name))?.[1]
    if (language !== undefined) return language
  }
  return undefined
}

/** The handlers of hast-util-to-mdast that differ from its own, for a page whose references `resolve` makes absolute. */
export const handlersFor = (resolve: Resolve): Record<string, Handle> => {
  const linkOf = (state: State, element: Element): Link | Array<PhrasingContent> => {
    const children = phrasingOf(state.all(element))
    const href = stringProperty(element, "href")
    const target = href === undefined ? undefined : resolve(href)
    if (target === undefined || !LINK_PROTOCOLS.has(target.protocol)) return children
    if (visible(children)) return { type: "link", url: target.href, title: null, children }
    // A link around an icon only: its accessible name, else nothing a reader could click.
    const name = collapse(stringProperty(element, "ariaLabel") ?? stringProperty(element, "title") ?? "").trim()
    return name === "" ? children : { type: "link", url: target.href, title: null, children: [text(name)] }
  }

  const inlineCode: Handle = (state, element) => {
    const content = element.children.filter((child) => !(child.type === "text" && child.value.trim() === ""))
    const only = content.length === 1 ? content[0] : undefined
    // `<code><a href>name</a></code>`, as API references write it, stays a link.
    if (only !== undefined && named("a")(only)) {
      const link = linkOf(state, only)
      if (!Array.isArray(link)) return { ...link, children: [{ type: "inlineCode", value: lineOf(only) }] }
    }
    // The spaces at its edges stay outside, between the code and its neighbours.
    const spaced = collapse(toText(element, { whitespace: "pre" }))
    const value = spaced.trim()
    if (value === "") return spaced === "" ? undefined : text(" ")
    return [
      ...(spaced.startsWith(" ") ? [text(" ")] : []),
      { type: "inlineCode", value },
      ...(spaced.endsWith(" ") ? [text(" ")] : [])
    ]
  }

  const codeBlock: Handle = (_, element) => {
    const elements = element.children.filter((child) => child.type === "element")
    const code = elements.length === 1 && named("code")(elements[0] ?? element) ? elements[0] : undefined
    // Verbatim, but without the blank lines that markup indentation leaves at either end.
    const value = toText(element).replace(/\r\n?/g, "\n").replace(/^(?:[ \t]*\n)+/, "").trimEnd()
    if (value === "") return undefined
    return { type: "code", lang: languageOf(code) ?? languageOf(element) ?? null, meta: null, value }
  }

  // A heading is its text: links, code and emphasis in it are read as text, permalink anchors are gone (`prepare`).
  const heading: Handle = (_, element) => {
    const value = lineOf(element)
    if (value === "") return undefined
    return { type: "heading", depth: Number(element.tagName.slice(1)) as Heading["depth"], children: [text(value)] }
  }

  const table: Handle = (state, element) => {
    const caption = element.children.find(named("caption"))
    const before = caption === undefined ? [] : paragraph(phrasingOf(state.all(caption)))
    const rows = rowsOf(element)
    // A table of tables lays a page out: its cells are read as blocks.
    if (holdsTable(element)) return [...before, ...rows.flatMap((row) => cellsOf(row).flatMap((cell) => state.toFlow(state.all(cell))))]
    // Every row is padded to the widest: past MAX_CELLS a few wide rows would multiply the page.
    if (gridSize(rows) > MAX_CELLS)
      return [
        ...before,
        ...rowParagraphs(rows.map((row) => cellsOf(row).map((cell) => phrasingOf(state.all(cell)))))
      ]
    const grid = defaultHandlers.table(state, element)
    if (grid === undefined || Array.isArray(grid) || grid.type !== "table") return before
    for (const row of grid.children) for (const cell of row.children) cell.children = phrasingOf(cell.children)
    // hast-util-to-mdast gives a table without a header an empty one: its first row is its header.
    const first = grid.children[0]
    if (grid.children.length > 1 && first !== undefined && !first.children.some((cell) => visible(cell.children))) grid.children.shift()
    for (const row of grid.children) {
      const last = row.children[MAX_COLUMNS - 1]
      if (last === undefined) continue
      // Past the last column, a cell's content joins it.
      for (const cell of row.children.slice(MAX_COLUMNS)) {
        if (visible(cell.children)) last.children = visible(last.children) ? [...last.children, text(" "), ...cell.children] : cell.children
      }
      row.children = row.children.slice(0, MAX_COLUMNS)
    }
    grid.align = grid.align?.slice(0, MAX_COLUMNS) ?? null
    if (!grid.children.some((row) => row.children.some((cell) => visible(cell.children)))) return before
    if (gridText(grid) > MAX_GRID_TEXT)
      return [
        ...before,
        ...rowParagraphs(grid.children.map((row) => row.children.map((cell) => cell.children)))
      ]
    return [...before, grid]
  }

  const image: Handle = (_, element) => {
    const src = stringProperty(element, "src")
    const target = src === undefined ? undefined : resolve(src)
    if (target === undefined || !isWeb(target)) return undefined
    return { type: "image", url: target.href, title: null, alt: collapse(stringProperty(element, "alt") ?? "").trim() }
  }

  return {
    a: (state, element) => linkOf(state, element),
    img: image,
    image,
    code: inlineCode,
    kbd: inlineCode,
    samp: inlineCode,
    tt: inlineCode,
    var: inlineCode,
    pre: codeBlock,
    listing: codeBlock,
    plaintext: codeBlock,
    xmp: codeBlock,
    h1: heading,
    h2: heading,
    h3: heading,
    h4: heading,
    h5: heading,
    h6: heading,
    table
  }
}
