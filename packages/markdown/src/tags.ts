// GitBook's block tags are a tiny syntax of their own, on a line by themselves: liquid tags
// (`{% name key="value" "arg" %}`) and the HTML lines that open and close an expandable or hold a
// figure. This module tokenizes a tag line; the HTML inside those lines is read by hast-util-from-html.
import type { Element, ElementContent, Root as HastRoot } from "hast"
import { fromHtml } from "hast-util-from-html"

/** A value in a tag, with its raw offsets inside the tag line (quotes excluded). */
export interface TagValue {
  readonly value: string
  readonly start: number
  readonly end: number
}

export interface LiquidTag {
  readonly name: string
  readonly attributes: ReadonlyMap<string, TagValue>
  /** Bare quoted values, as in `{% include "path" %}`. */
  readonly args: ReadonlyArray<TagValue>
}

const isSpace = (c: string | undefined) => c === " " || c === "\t"
const isNameChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_-]/.test(c)

/** Whether a line (without its line ending) looks like a tag line, cheaply: the tokenizer decides with this. */
export const isTagLine = (line: string): boolean => {
  const text = line.trimEnd()
  if (text.startsWith("{%")) return text.length >= 4 && text.endsWith("%}")
  if (!text.startsWith("<")) return false
  const head = text.slice(0, 10).toLowerCase()
  const tail = text.slice(-12).toLowerCase()
  if (/^<\/?details[\s>]/.test(head)) return tail.endsWith(">")
  if (head.startsWith("<summary")) return tail.endsWith("</summary>")
  return head.startsWith("<figure") && tail.endsWith("</figure>")
}

/** Reads `{% name key="value" key='value' key=bare "arg" %}`; undefined when malformed. Linear in the line. */
export const readLiquid = (line: string): LiquidTag | undefined => {
  const text = line.trimEnd()
  if (!text.startsWith("{%") || !text.endsWith("%}")) return undefined
  // Liquid's whitespace control (`{%-`, `-%}`) is accepted and ignored.
  let end = text.length - 2
  if (text[end - 1] === "-") end--
  let i = 2
  if (text[i] === "-") i++
  const skip = () => {
    while (i < end && isSpace(text[i])) i++
  }
  skip()
  const nameStart = i
  while (i < end && isNameChar(text[i])) i++
  const name = text.slice(nameStart, i)
  if (name === "") return undefined
  const attributes = new Map<string, TagValue>()
  const args: Array<TagValue> = []
  const quoted = (): TagValue | undefined => {
    const quote = text[i]
    const start = i + 1
    const close = text.indexOf(quote ?? "", start)
    if (close === -1 || close >= end) return undefined
    i = close + 1
    const value = text.slice(start, close)
    return { value: quote === "\"" ? value.replace(/&quot;/g, "\"") : value, start, end: close }
  }
  while (true) {
    const before = i
    skip()
    if (i >= end) break
    if (before === i) return undefined
    const c = text[i]
    if (c === "\"" || c === "'") {
      const value = quoted()
      if (value === undefined) return undefined
      args.push(value)
      continue
    }
    const keyStart = i
    while (i < end && isNameChar(text[i])) i++
    if (i === keyStart) return undefined
    const key = text.slice(keyStart, i)
    if (text[i] !== "=") {
      attributes.set(key, { value: "", start: i, end: i })
      continue
    }
    i++
    if (text[i] === "\"" || text[i] === "'") {
      const value = quoted()
      if (value === undefined) return undefined
      attributes.set(key, value)
    } else {
      const start = i
      while (i < end && !isSpace(text[i])) i++
      attributes.set(key, { value: text.slice(start, i), start, end: i })
    }
  }
  return { name, attributes, args }
}

/**
 * A value written into a tag: on one line, in quotes that it does not contain. Liquid has no escape
 * for a quote; a value with both kinds has its `"` written `&quot;`, which `readLiquid` reads back.
 */
export const tagValue = (value: string): string => {
  const line = value.replace(/[\r\n]+/g, " ")
  if (!line.includes("\"")) return `"${line}"`
  if (!line.includes("'")) return `'${line}'`
  return `"${line.replace(/"/g, "&quot;")}"`
}

/** A url written into a tag: quotes are percent-encoded, so the quoting never changes. */
export const tagUrl = (url: string): string => `"${url.replace(/[\r\n]+/g, "").replace(/"/g, "%22")}"`

// HTML tag lines.

export type HtmlTag =
  | { readonly kind: "details"; readonly open: boolean; readonly summary: string | undefined }
  | { readonly kind: "/details" }
  | { readonly kind: "summary"; readonly text: string }
  | {
    readonly kind: "figure"
    readonly url: string
    readonly alt: string
    readonly caption: string
    readonly width: string | undefined
    /** Raw offsets of the `src` value in the line, and how it is quoted. */
    readonly src: { readonly start: number; readonly end: number; readonly quote: string }
  }

const textOf = (node: ElementContent | HastRoot): string => {
  if (node.type === "text") return node.value
  if (node.type === "element" || node.type === "root") return node.children.map((child) => textOf(child as ElementContent)).join("")
  return ""
}

const blank = (node: ElementContent) => node.type === "comment" || (node.type === "text" && node.value.trim() === "")

const elements = (children: ReadonlyArray<ElementContent>) => children.filter((child) => !blank(child))

const find = (node: Element, tagName: string): Element | undefined => {
  for (const child of node.children) {
    if (child.type !== "element") continue
    if (child.tagName === tagName) return child
    const found = find(child, tagName)
    if (found !== undefined) return found
  }
  return undefined
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

/** Where the value of attribute `name` of `element` (parsed verbosely from `line`) sits in `line`, quotes excluded, and its quote. */
export const attributeSpan = (
  element: Element,
  name: string,
  line: string
): { start: number; end: number; quote: string } | undefined => {
  const position = element.data?.position?.properties?.[name]
  const start = position?.start.offset
  const end = position?.end.offset
  if (start === undefined || end === undefined) return undefined
  const raw = line.slice(start, end)
  const equals = raw.indexOf("=")
  if (equals === -1) return undefined
  let from = equals + 1
  while (isSpace(raw[from])) from++
  const quote = raw[from] === "\"" || raw[from] === "'" ? (raw[from] as string) : ""
  return quote === ""
    ? { start: start + from, end, quote }
    : { start: start + from + 1, end: end - 1, quote }
}

/** Reads an HTML tag line that opens or closes an expandable, names its summary, or holds a figure. */
export const readHtmlTag = (line: string): HtmlTag | undefined => {
  const text = line.trimEnd()
  if (/^<\/details\s*>$/i.test(text)) return { kind: "/details" }
  if (/<\/details\s*>/i.test(text)) return undefined
  // A figure holds a handful of tags; a line of thousands is not one (and would nest deeply).
  let tags = 0
  for (let index = text.indexOf("<"); index !== -1 && tags <= 64; index = text.indexOf("<", index + 1)) tags++
  if (tags > 64) return undefined
  const tree = fromHtml(text, { fragment: true, verbose: true })
  const top = elements(tree.children as Array<ElementContent>)
  const first = top[0]
  if (top.length !== 1 || first === undefined || first.type !== "element") return undefined
  if (first.tagName === "details") {
    const inside = elements(first.children)
    const summary = inside[0]
    if (inside.length === 0) return { kind: "details", open: first.properties["open"] !== undefined, summary: undefined }
    if (inside.length === 1 && summary?.type === "element" && summary.tagName === "summary") {
      return { kind: "details", open: first.properties["open"] !== undefined, summary: oneLine(textOf(summary)) }
    }
    return undefined
  }
  if (first.tagName === "summary") return { kind: "summary", text: oneLine(textOf(first)) }
  if (first.tagName === "figure") {
    const img = find(first, "img")
    const url = img?.properties["src"]
    const src = img === undefined ? undefined : attributeSpan(img, "src", text)
    if (img === undefined || typeof url !== "string" || src === undefined) return undefined
    const alt = img.properties["alt"]
    const caption = find(first, "figcaption")
    const width = img.properties["width"]
    return {
      kind: "figure",
      url,
      alt: typeof alt === "string" ? alt : "",
      caption: caption === undefined ? "" : oneLine(textOf(caption)),
      width: typeof width === "number" || (typeof width === "string" && width !== "") ? String(width) : undefined,
      src
    }
  }
  return undefined
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
const attribute = (text: string) => escapeHtml(text).replace(/"/g, "&quot;")

export const figureHtml = (url: string, alt: string, caption: string, width?: string): string => {
  const img = `<img src="${attribute(url)}" alt="${attribute(oneLine(alt))}"${width === undefined ? "" : ` width="${attribute(width)}"`}>`
  const figcaption = caption.trim() === "" ? "" : `<figcaption><p>${escapeHtml(oneLine(caption))}</p></figcaption>`
  return `<figure>${img}${figcaption}</figure>`
}

export const summaryHtml = (title: string): string => `<summary>${escapeHtml(oneLine(title))}</summary>`

/** A url written into an HTML attribute value quoted with `quote` ("" when it was unquoted). */
export const htmlAttributeValue = (url: string, quote: string): string => {
  const escaped = url.replace(/&/g, "&amp;")
  if (quote === "'") return escaped.replace(/'/g, "&#39;")
  if (quote === "\"") return escaped.replace(/"/g, "&quot;")
  // Unquoted it stays, when HTML lets it.
  if (/^[^\s"'=<>`&]+$/.test(url)) return url
  return `"${escaped.replace(/"/g, "&quot;")}"`
}

/** `title="…"` (or `title='…'`, `title=bare`) in a code fence's meta, and the meta without it. */
export const readMetaTitle = (meta: string): { readonly title: string; readonly rest: string } | undefined => {
  let from = 0
  while (true) {
    const index = meta.indexOf("title=", from)
    if (index === -1) return undefined
    from = index + 1
    if (index > 0 && !isSpace(meta[index - 1])) continue
    const start = index + "title=".length
    const quote = meta[start]
    let end: number
    let title: string
    if (quote === "\"" || quote === "'") {
      const close = meta.indexOf(quote, start + 1)
      if (close === -1) continue
      title = meta.slice(start + 1, close)
      end = close + 1
    } else {
      end = start
      while (end < meta.length && !isSpace(meta[end])) end++
      title = meta.slice(start, end)
    }
    const rest = `${meta.slice(0, index).trimEnd()} ${meta.slice(end).trimStart()}`.trim()
    return { title, rest }
  }
}
