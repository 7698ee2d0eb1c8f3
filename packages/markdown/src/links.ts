import type { Element, RootContent as HastContent } from "hast"
import { fromHtml } from "hast-util-from-html"
import type { Html, Nodes, Root } from "mdast"
import { parseWithSpans } from "./parse.js"
import type { Parsed } from "./parse.js"
import { stringify } from "./stringify.js"
import { attributeSpan, htmlAttributeValue } from "./tags.js"
import { textOf } from "./text.js"

export type LinkKind = "link" | "image" | "content-ref" | "embed" | "file"

/** A url in a page, with where it sits in the source (`start` to `end`, the url's own characters). */
export interface Link {
  readonly url: string
  readonly kind: LinkKind
  readonly start: number
  readonly end: number
}

type Form =
  | { readonly type: "destination"; readonly enclosed: boolean } // `[x](url)`, `![x](url)`, `[x]: url`
  | { readonly type: "autolink" } // `<https://…>`
  | { readonly type: "literal" } // GFM's bare `https://…` and `www.…`
  | { readonly type: "tag"; readonly quote: string } // `{% embed url="…" %}`
  | { readonly type: "attribute"; readonly quote: string } // `<img src="…">` in a figure, `<a href="…">` in any HTML

interface Found extends Link {
  readonly node: Nodes
  readonly form: Form
}

const offsets = (node: Nodes): { start: number; end: number } | undefined => {
  const start = node.position?.start.offset
  const end = node.position?.end.offset
  return start === undefined || end === undefined ? undefined : { start, end }
}

const tagKinds: Partial<Record<Nodes["type"], LinkKind>> = { contentRef: "content-ref", embed: "embed", file: "file", figure: "image" }

/** The elements of HTML written in a page whose attribute holds a url, as the page's links and images. */
const htmlUrls: Readonly<Record<string, { readonly attribute: string; readonly kind: LinkKind }>> = {
  a: { attribute: "href", kind: "link" },
  img: { attribute: "src", kind: "image" }
}

/**
 * The links and images of raw HTML (a GitBook table, card, framed figure, button): its source is read
 * as HTML, each url found with where its value sits, so that it is resolved and rewritten in place
 * like a markdown link's. A value written over lines, or markup nested past what the parser reads,
 * is left alone.
 */
const htmlLinks = (markdown: string, node: Html): Array<Found> => {
  const at = offsets(node)
  if (at === undefined) return []
  const source = markdown.slice(at.start, at.end)
  if (!/<(?:a|img)\s/i.test(source)) return []
  let children: Array<HastContent>
  try {
    children = fromHtml(source, { fragment: true, verbose: true }).children
  } catch (error) {
    if (error instanceof RangeError) return []
    throw error
  }
  const found: Array<Found> = []
  const stack = [...children].reverse()
  for (let child = stack.pop(); child !== undefined; child = stack.pop()) {
    if (child.type !== "element") continue
    const element: Element = child
    const wanted = htmlUrls[element.tagName]
    const url = wanted === undefined ? undefined : element.properties[wanted.attribute]
    const span = wanted === undefined || typeof url !== "string" ? undefined : attributeSpan(element, wanted.attribute, source)
    if (wanted !== undefined && typeof url === "string" && span !== undefined && !/[\r\n]/.test(source.slice(span.start, span.end))) {
      const form: Form = { type: "attribute", quote: span.quote }
      found.push({ url, kind: wanted.kind, start: at.start + span.start, end: at.start + span.end, node, form })
    }
    for (let i = element.children.length - 1; i >= 0; i--) stack.push(element.children[i] as HastContent)
  }
  return found
}

const find = (markdown: string, parsed: Parsed): Array<Found> => {
  const found: Array<Found> = []
  const visit = (node: Nodes) => {
    if (node.type === "link" || node.type === "image" || node.type === "definition") {
      const destination = parsed.destinations.get(node)
      const kind = node.type === "image" ? "image" : "link"
      if (destination !== undefined) {
        const enclosed = markdown[destination.start - 1] === "<"
        found.push({ url: node.url, kind, ...destination, node, form: { type: "destination", enclosed } })
      } else if (node.type === "link") {
        const at = offsets(node)
        if (at !== undefined && markdown[at.start] === "<") {
          found.push({ url: node.url, kind, start: at.start + 1, end: at.end - 1, node, form: { type: "autolink" } })
        } else if (at !== undefined) {
          found.push({ url: node.url, kind, ...at, node, form: { type: "literal" } })
        }
      }
    }
    if (node.type === "html") found.push(...htmlLinks(markdown, node))
    const kind = tagKinds[node.type]
    const url = parsed.tagUrls.get(node)
    if (kind !== undefined && url !== undefined && "url" in node) {
      const form: Form = node.type === "figure" ? { type: "attribute", quote: url.quote } : { type: "tag", quote: url.quote }
      found.push({ url: node.url, kind, start: url.start, end: url.end, node, form })
    }
    if ("children" in node) { for (const child of node.children) visit(child) }
  }
  visit(parsed.tree)
  return found.sort((a, b) => a.start - b.start)
}

/**
 * The urls of a page in document order: links and images wherever they are (paragraphs, headings,
 * tables, hints, tabs…), link definitions, content refs, embeds, files, figures' images, and the
 * `href`s and `src`s of the HTML GitBook writes (tables, cards, framed figures, buttons). Links
 * inside code are not links.
 */
export const linksOf = (markdown: string): Array<Link> =>
  find(markdown, parseWithSpans(markdown)).map(({ url, kind, start, end }) => ({ url, kind, start, end }))

// Rewriting: edits of the source, nested where a link holds an image.

interface Edit {
  readonly start: number
  readonly end: number
  /** The new text, given a way to read (and rewrite) a part of the source inside the edit. */
  readonly render: (inner: (from: number, to: number) => string) => string
  readonly children: Array<Edit>
}

const apply = (source: string, edits: Array<Edit>): string => {
  edits.sort((a, b) => a.start - b.start || b.end - a.end)
  const roots: Array<Edit> = []
  const stack: Array<Edit> = []
  for (const edit of edits) {
    let last: Edit | undefined
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as Edit
      if (top.start <= edit.start && edit.end <= top.end && top.end > top.start) break
      last = stack.pop()
    }
    // An edit that overlaps another without being inside it cannot be applied: it is left out.
    if (last !== undefined && last.end > edit.start) continue
    ;(stack.length > 0 ? (stack[stack.length - 1] as Edit).children : roots).push(edit)
    stack.push(edit)
  }
  const splice = (from: number, to: number, list: ReadonlyArray<Edit>): string => {
    let out = ""
    let at = from
    for (const edit of list) {
      if (edit.start < at || edit.end > to) continue
      out += source.slice(at, edit.start) + edit.render((a, b) => splice(a, b, edit.children))
      at = edit.end
    }
    return out + source.slice(at, to)
  }
  return splice(0, source.length, roots)
}

/** Plain text as markdown that reads as that text. */
const asText = (value: string): string =>
  value.trim() === "" ? "" : stringify({ type: "root", children: [{ type: "paragraph", children: [{ type: "text", value }] }] }).trimEnd()

const balanced = (url: string) => {
  let depth = 0
  for (const c of url) {
    if (c === "(") depth++
    else if (c === ")" && --depth < 0) return false
  }
  return depth === 0
}

/** A url as a link destination that reads back as that url. */
const destination = (url: string, enclosed: boolean): string => {
  // Backslashes and what would read as a character reference are escaped in both forms.
  const escaped = url.replace(/\\/g, "\\\\").replace(/&(?=#?[A-Za-z0-9]{1,32};)/g, "\\&")
  if (!enclosed && url !== "" && balanced(url) && !/[\s<>\p{Cc}]/u.test(url)) return escaped
  const inside = escaped.replace(/[<>]/g, "\\$&").replace(/\r?\n|\r/g, "%0A")
  return enclosed ? inside : `<${inside}>`
}

const absolute = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\p{Cc}]*$/u
// What GFM reads as a bare link: no blank, no `<`, and no trailing punctuation it would leave out.
const bare = /^(?:https?:\/\/|www\.)[^\s<>\p{Cc}]*[^\s<>\p{Cc}?!.,:*_~)]$/u

const tagUrlValue = (url: string, quote: string): string => {
  const line = url.replace(/[\r\n]/g, "")
  if (quote === "'") return line.replace(/'/g, "%27")
  if (quote === "\"") return line.replace(/"/g, "%22")
  return `"${line.replace(/"/g, "%22")}"`
}

/** Where the content of a parent sits in the source, to keep it. */
const childrenSpan = (node: Nodes): { start: number; end: number } | undefined => {
  if (!("children" in node) || node.children.length === 0) return undefined
  const first = offsets(node.children[0] as Nodes)
  const last = offsets(node.children[node.children.length - 1] as Nodes)
  return first === undefined || last === undefined ? undefined : { start: first.start, end: last.end }
}

const keepChildren = (node: Nodes) => (inner: (from: number, to: number) => string) => {
  const span = childrenSpan(node)
  return span === undefined ? "" : inner(span.start, span.end)
}

const altOf = (node: Nodes): string =>
  node.type === "image" || node.type === "imageReference" ? node.alt ?? "" : node.type === "figure" ? node.alt || node.caption : ""

/** The edit that takes a link out, keeping what a reader saw of it. */
const unlink = (link: Found, markdown: string): Edit | undefined => {
  const node = link.node
  const at = offsets(node)
  if (at === undefined) return undefined
  switch (node.type) {
    case "link":
    case "linkReference":
      return { ...at, render: keepChildren(node), children: [] }
    case "image":
    case "imageReference":
    case "figure":
      return { ...at, render: () => asText(altOf(node)), children: [] }
    case "definition": {
      // The definition goes, with its line; the references to it are unlinked apart.
      const end = markdown.startsWith("\r\n", at.end) ? at.end + 2 : markdown[at.end] === "\n" ? at.end + 1 : at.end
      return { start: at.start, end, render: () => "", children: [] }
    }
    case "contentRef":
      return { ...at, render: () => asText(textOf({ type: "root", children: node.children })), children: [] }
    case "embed":
    case "file":
      return { ...at, render: keepChildren(node), children: [] }
    default:
      return undefined
  }
}

/** The edit that puts `url` in place of a link's url. */
const relink = (link: Found, url: string, markdown: string): Edit => {
  const replace = (text: string): Edit => ({ start: link.start, end: link.end, render: () => text, children: [] })
  const labelled = (): Edit => {
    const at = offsets(link.node) ?? link
    const label = asText(markdown.slice(link.start, link.end))
    return { ...at, render: () => `[${label}](${destination(url, false)})`, children: [] }
  }
  switch (link.form.type) {
    case "destination":
      return replace(destination(url, link.form.enclosed))
    case "autolink":
      return absolute.test(url) ? replace(url) : labelled()
    case "literal":
      if (bare.test(url)) return replace(url)
      return absolute.test(url) ? { ...(offsets(link.node) ?? link), render: () => `<${url}>`, children: [] } : labelled()
    case "tag":
      return replace(tagUrlValue(url, link.form.quote))
    case "attribute":
      return replace(htmlAttributeValue(url, link.form.quote))
  }
}

const referencesTo = (tree: Root, identifiers: ReadonlySet<string>): Array<Nodes> => {
  const references: Array<Nodes> = []
  const visit = (node: Nodes) => {
    if ((node.type === "linkReference" || node.type === "imageReference") && identifiers.has(node.identifier)) references.push(node)
    if ("children" in node) { for (const child of node.children) visit(child) }
  }
  visit(tree)
  return references
}

/**
 * Rewrites the urls of a page by splicing its source, so that everything else stays as it was.
 * `decide` sees each link of `linksOf`: a string replaces the url; `null` takes the link out and
 * keeps what a reader saw of it (a link's text, an image's alt text, an embed's caption); undefined
 * leaves it as it is. A definition taken out takes its references with it.
 */
export const rewriteLinks = (markdown: string, decide: (link: Link) => string | null | undefined): string => {
  const parsed = parseWithSpans(markdown)
  const edits: Array<Edit> = []
  const dropped = new Set<string>()
  for (const link of find(markdown, parsed)) {
    const decision = decide({ url: link.url, kind: link.kind, start: link.start, end: link.end })
    if (decision === undefined || decision === link.url) continue
    if (decision === null) {
      const edit = unlink(link, markdown)
      if (edit !== undefined) edits.push(edit)
      if (link.node.type === "definition") dropped.add(link.node.identifier)
    } else {
      edits.push(relink(link, decision, markdown))
    }
  }
  if (dropped.size > 0) {
    for (const reference of referencesTo(parsed.tree, dropped)) {
      const at = offsets(reference)
      if (at === undefined) continue
      edits.push({
        ...at,
        render: reference.type === "imageReference" ? () => asText(altOf(reference)) : keepChildren(reference),
        children: []
      })
    }
  }
  return edits.length === 0 ? markdown : apply(markdown, edits)
}
