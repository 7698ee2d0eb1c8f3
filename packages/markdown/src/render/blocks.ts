// What GitBook's editor writes as HTML inside markdown, made into the reader's blocks once the HTML
// is read and cleaned: cards tables as a grid of cards, Font Awesome icons as SVG, button links with
// their icon, and markdown written inside table cells.
import type { Element, ElementContent, Parents, Root } from "hast"
import { iconOf, iconSvg } from "./icons.js"

const element = (tagName: string, properties: Element["properties"], children: Array<ElementContent>): Element => ({
  type: "element",
  tagName,
  properties,
  children
})

export const classesOf = (node: Element): Array<string> => {
  const value = node.properties["className"]
  return Array.isArray(value) ? value.map(String) : typeof value === "string" ? String(value).split(/\s+/) : []
}

const has = (node: Element, property: string): boolean => {
  const value = node.properties[property]
  return value !== undefined && value !== null && value !== false
}

const text = (node: ElementContent | Parents): string =>
  node.type === "text"
    ? node.value
    : node.type === "element" || node.type === "root"
    ? node.children.map((child) => text(child as ElementContent)).join("")
    : ""

/** The first element under `node` (itself included) that `test` accepts. */
const first = (node: Element, test: (element: Element) => boolean): Element | undefined => {
  if (test(node)) return node
  for (const child of node.children) {
    if (child.type !== "element") continue
    const found = first(child, test)
    if (found !== undefined) return found
  }
  return undefined
}

const named = (name: string) => (node: ElementContent): node is Element => node.type === "element" && node.tagName === name

/**
 * Replaces each element of `parent`'s subtree by what `replace` gives for it, its children done first
 * (undefined keeps it as it is).
 */
export const mapElements = (parent: Parents, replace: (node: Element) => Array<ElementContent> | undefined): void => {
  const children: Array<ElementContent> = []
  for (const child of parent.children as Array<ElementContent>) {
    if (child.type !== "element") {
      children.push(child)
      continue
    }
    mapElements(child, replace)
    children.push(...(replace(child) ?? [child]))
  }
  ;(parent as Element).children = children
}

// Cards: `<table data-view="cards">`, a column each for what a card shows, hidden columns for its target and cover.

interface Column {
  readonly hidden: boolean
  readonly target: boolean
  readonly cover: boolean
  readonly coverDark: boolean
}

const rowsOf = (table: Element, section: "thead" | "tbody"): Array<Element> =>
  table.children.flatMap((child) => {
    if (child.type !== "element") return []
    if (child.tagName === "tr") return section === "tbody" ? [child] : []
    if (child.tagName === section || (section === "tbody" && child.tagName === "tfoot")) return child.children.filter(named("tr"))
    return []
  })

const cellsOf = (row: Element): Array<Element> => row.children.filter((c): c is Element => named("td")(c) || named("th")(c))

/** A url a cell holds: its link's, its image's, else its text when that is one word. */
const urlIn = (cell: Element): string | undefined => {
  const found = first(cell, (node) => (node.tagName === "a" && has(node, "href")) || (node.tagName === "img" && has(node, "src")))
  const url = found === undefined ? undefined : found.properties[found.tagName === "a" ? "href" : "src"]
  if (typeof url === "string" && url !== "") return url
  const word = text(cell).trim()
  return word !== "" && !/\s/.test(word) ? word : undefined
}

const shows = (nodes: ReadonlyArray<ElementContent>): boolean =>
  nodes.some((node) =>
    node.type === "element" ? node.tagName === "img" || node.tagName === "svg" || shows(node.children) : text(node).trim() !== ""
  )

/** A link inside a card, which is itself a link, is its content. */
const unlinked = (nodes: ReadonlyArray<ElementContent>): Array<ElementContent> =>
  nodes.flatMap((node) =>
    node.type !== "element" ? [node] : node.tagName === "a" ? unlinked(node.children) : [{ ...node, children: unlinked(node.children) }]
  )

const cards = (table: Element): Element => {
  const head = rowsOf(table, "thead")[0]
  const columns: Array<Column> = (head === undefined ? [] : cellsOf(head)).map((th) => ({
    hidden: has(th, "dataHidden"),
    target: has(th, "dataCardTarget"),
    cover: has(th, "dataCardCover"),
    coverDark: has(th, "dataCardCoverDark")
  }))
  const grid = rowsOf(table, "tbody").flatMap((row): Array<Element> => {
    let href: string | undefined
    let cover: string | undefined
    let dark: string | undefined
    const body: Array<Element> = []
    cellsOf(row).forEach((cell, i) => {
      const column = columns[i]
      if (column?.target === true) href ??= urlIn(cell)
      else if (column?.cover === true) cover ??= urlIn(cell)
      else if (column?.coverDark === true) dark ??= urlIn(cell)
      else if (column?.hidden !== true && shows(cell.children)) body.push(element("div", { className: ["card-text"] }, cell.children))
    })
    if (body.length === 0 && cover === undefined) return []
    const covers = [
      ...(cover === undefined
        ? []
        : [element("img", { src: cover, alt: "", className: ["card-cover", ...(dark === undefined ? [] : ["light-only"])] }, [])]),
      ...(dark === undefined ? [] : [element("img", { src: dark, alt: "", className: ["card-cover", "dark-only"] }, [])])
    ]
    const content = [...covers, element("div", { className: ["card-body"] }, href === undefined ? body : unlinked(body) as Array<Element>)]
    return [href === undefined ? element("div", { className: ["card"] }, content) : element("a", { href, className: ["card"] }, content)]
  })
  const large = table.properties["dataCardSize"] === "large"
  return element("div", { className: ["cards", ...(large ? ["cards-large"] : [])] }, grid)
}

/** An `<i class="fa-…">` as its icon; one the free sets lack shows nothing. */
const icon = (node: Element): Array<ElementContent> | undefined => {
  const classes = classesOf(node)
  if (!classes.some((c) => c.startsWith("fa-"))) return undefined
  const glyph = iconOf(classes)
  const rest = node.children.filter((child) => child.type !== "text" || child.value.trim() !== "")
  return glyph === undefined ? rest : [iconSvg(glyph), ...rest]
}

/** A button link (`<a class="button primary">`) may name an icon in `data-icon`, shown before its label. */
const button = (node: Element): Array<ElementContent> | undefined => {
  const name = node.properties["dataIcon"]
  if (!classesOf(node).includes("button") || typeof name !== "string") return undefined
  const glyph = iconOf([`fa-${name.replace(/^fa-/, "")}`])
  return glyph === undefined ? undefined : [{ ...node, children: [iconSvg(glyph), ...node.children] }]
}

/** GitBook's HTML constructs, in place, on a cleaned tree. */
export const gitbookBlocks = (tree: Root): void =>
  mapElements(tree, (node) => {
    if (node.tagName === "i") return icon(node)
    if (node.tagName === "a") return button(node)
    if (node.tagName === "table" && node.properties["dataView"] === "cards") return [cards(node)]
    return undefined
  })

// Markdown written inside the cells of an HTML table (`<td>**Name**: see [the guide](guide.md)</td>`), which HTML leaves as text.

const MARKUP = /[*_`~[]/

/** Reads the markdown in the text of `<td>`s and `<th>`s with `phrasing`, before the tree is cleaned (its links are written by the page). */
export const cellMarkdown = (tree: Root, phrasing: (markdown: string) => Array<ElementContent> | undefined): void => {
  const inCell = (parent: Element): void => {
    const children: Array<ElementContent> = []
    for (const child of parent.children) {
      if (child.type === "element") {
        if (child.tagName !== "code" && child.tagName !== "pre" && child.tagName !== "a") inCell(child)
        children.push(child)
      } else if (child.type === "text" && MARKUP.test(child.value)) {
        const read = phrasing(child.value.trim())
        if (read === undefined) children.push(child)
        else {
          const lead = /^\s+/.exec(child.value)?.[0]
          const tail = /\s+$/.exec(child.value)?.[0]
          children.push(
            ...(lead === undefined ? [] : [{ type: "text" as const, value: lead }]),
            ...read,
            ...(tail === undefined ? [] : [{ type: "text" as const, value: tail }])
          )
        }
      } else children.push(child)
    }
    parent.children = children
  }
  mapElements(tree, (node) => {
    if (node.tagName === "td" || node.tagName === "th") inCell(node)
    return undefined
  })
}
