import GithubSlugger, { slug } from "github-slugger"
import type { Heading, Nodes } from "mdast"
import { parse } from "./parse.js"

// The words a reader sees, walked out of a tree: text, code, alt texts, titles of tabs and
// expandables, captions. Link targets, HTML tags, front matter and definitions are not seen.
interface Sink {
  text(value: string): void
  /** A boundary between blocks: becomes a blank, so that words of two blocks do not stick. */
  block(): void
  heading(node: Heading): void
}

const phrasingParents = new Set(["emphasis", "strong", "delete", "link", "linkReference"])
const lineBreak = /^<br\s*\/?>$/i

const walk = (node: Nodes, sink: Sink): void => {
  switch (node.type) {
    case "text":
    case "inlineCode":
    case "inlineMath":
      sink.text(node.value)
      return
    case "code":
    case "math":
      sink.block()
      sink.text(node.value)
      sink.block()
      return
    case "image":
    case "imageReference":
      sink.text(node.alt ?? "")
      return
    case "break":
      sink.text(" ")
      return
    case "html":
      // A `<br>` separates words; other tags are markup, dropped without a trace.
      if (lineBreak.test(node.value.trim())) sink.text(" ")
      return
    case "yaml":
    case "definition":
    case "include":
    case "footnoteReference":
      return
    case "heading":
      sink.heading(node)
      return
    case "figure":
      sink.block()
      sink.text(node.alt)
      sink.block()
      sink.text(node.caption)
      sink.block()
      return
    case "expandable":
    case "tab":
      sink.block()
      sink.text(node.title)
      sink.block()
      break
    default:
      break
  }
  if (!("children" in node)) return
  const block = !phrasingParents.has(node.type)
  if (block) sink.block()
  for (const child of node.children) walk(child, sink)
  if (block) sink.block()
}

const collapse = (parts: ReadonlyArray<string>) => parts.join("").replace(/\s+/g, " ").trim()

const collector = (parts: Array<string>): Sink => {
  const sink: Sink = {
    text: (value) => parts.push(value),
    block: () => parts.push("\n"),
    heading: (node) => {
      sink.block()
      for (const child of node.children) walk(child, sink)
      sink.block()
    }
  }
  return sink
}

/** The plain text of a node (a heading, say): its words, on one line. */
export const textOf = (node: Nodes): string => {
  const parts: Array<string> = []
  walk(node, collector(parts))
  return collapse(parts)
}

/**
 * Markdown as the words a reader sees, on one line: markup leaves no blank behind (`Hello **world**,`
 * reads `Hello world,`), blocks are separated by one blank, code is kept; link targets, HTML tags and
 * front matter are dropped.
 */
export const plainText = (markdown: string): string => textOf(parse(markdown))

export interface Section {
  /** The heading's text; undefined for the text before the first heading. */
  readonly heading: string | undefined
  /** 1 to 6; 0 for the text before the first heading. */
  readonly depth: number
  /** GitHub's anchor for the heading, unique in the page (`-1`, `-2`… on repeats); "" before the first heading. */
  readonly anchor: string
  readonly text: string
}

/** A heading's anchor as GitHub makes it (before making it unique in its page). */
export const anchorOf = (heading: string): string => slug(heading)

/**
 * A page's sections: the text before its first heading (left out when empty), then each heading with
 * the text under it, up to the next heading. Headings anywhere count (in hints, tabs…), not in code.
 */
export const sections = (markdown: string): Array<Section> => {
  const result: Array<Section> = []
  const slugger = new GithubSlugger()
  let current: { heading: string | undefined; depth: number; anchor: string } = { heading: undefined, depth: 0, anchor: "" }
  let parts: Array<string> = []
  const close = () => {
    const text = collapse(parts)
    if (current.heading !== undefined || text !== "") result.push({ ...current, text })
  }
  const sink: Sink = {
    text: (value) => parts.push(value),
    block: () => parts.push("\n"),
    heading: (node) => {
      close()
      const heading = textOf(node)
      // A heading without words still gets an anchor of its own.
      const anchor = slugger.slug(anchorOf(heading) === "" ? "section" : heading)
      current = { heading, depth: node.depth, anchor }
      parts = []
    }
  }
  walk(parse(markdown), sink)
  close()
  return result
}

/** A slug from a title: lower-case ASCII words joined by `-`, accents stripped, at most 100 characters, `empty` ("page") when empty. */
export const slugify = (title: string, empty = "page"): string => {
  const slugged = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100)
    .replace(/-+$/, "")
  return slugged === "" ? empty : slugged
}
