import type { Root, RootContent } from "mdast"
import { parseDocument, stringify as stringifyYaml } from "yaml"
import { parse } from "./parse.js"
import { stringify } from "./stringify.js"
import { textOf } from "./text.js"

export type LayoutPart = "cover" | "title" | "description" | "tableOfContents" | "outline" | "pagination"
export const layoutParts: ReadonlyArray<LayoutPart> = ["cover", "title", "description", "tableOfContents", "outline", "pagination"]

export type PageLayout = Readonly<Partial<Record<LayoutPart, boolean>> & { coverSize?: string }>

/** What a page's markdown says about the page, besides its body: GitBook's front matter, and its title. */
export interface PageFields {
  readonly title?: string
  readonly description?: string
  readonly icon?: string
  readonly hidden?: boolean
  readonly cover?: string
  readonly coverY?: number
  /** `layout.<part>.visible`, for the parts the front matter names, and `layout.cover.size`. */
  readonly layout?: PageLayout
  readonly noIndex?: boolean
  readonly noRobotsIndex?: boolean
}

export interface PageMarkdown extends PageFields {
  readonly body: string
}

// Aliases are YAML's billion-laughs door; front matter has no use for more than a few.
const MAX_ALIASES = 10

type Fields = Omit<PageFields, "title">

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** GitBook's keys from a front matter's YAML; undefined when it is not a YAML mapping. */
const readFields = (yaml: string): Fields | undefined => {
  const document = parseDocument(yaml, { schema: "core", prettyErrors: false })
  if (document.errors.length > 0) return undefined
  let value: unknown
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIASES })
  } catch {
    return undefined
  }
  if (value === null || value === undefined) return {}
  if (!isRecord(value)) return undefined
  const text = (key: string) => {
    const field = value[key]
    return typeof field === "string" ? field : typeof field === "number" ? String(field) : undefined
  }
  const flag = (key: string) => (typeof value[key] === "boolean" ? value[key] : undefined)
  const layout: Partial<Record<LayoutPart, boolean>> & { coverSize?: string } = {}
  const parts = value["layout"]
  if (isRecord(parts)) {
    for (const part of layoutParts) {
      const entry = parts[part]
      if (isRecord(entry) && typeof entry["visible"] === "boolean") layout[part] = entry["visible"]
    }
    const cover = parts["cover"]
    if (isRecord(cover) && typeof cover["size"] === "string") layout.coverSize = cover["size"]
  }
  const coverY = value["coverY"]
  const fields: { -readonly [K in keyof Fields]: Fields[K] } = {}
  const description = text("description")
  const icon = text("icon")
  const cover = text("cover")
  const hidden = flag("hidden")
  const noIndex = flag("noIndex")
  const noRobotsIndex = flag("noRobotsIndex")
  if (description !== undefined) fields.description = description
  if (icon !== undefined) fields.icon = icon
  if (hidden !== undefined) fields.hidden = hidden
  if (cover !== undefined) fields.cover = cover
  if (typeof coverY === "number" && Number.isFinite(coverY)) fields.coverY = coverY
  if (Object.keys(layout).length > 0) fields.layout = layout
  if (noIndex !== undefined) fields.noIndex = noIndex
  if (noRobotsIndex !== undefined) fields.noRobotsIndex = noRobotsIndex
  return fields
}

/**
 * The front matter and first block of a page, from a prefix of it: the first blocks of a page do not
 * depend on what comes after the block that follows them, so a 1 MB page is not parsed whole for them.
 */
const head = (markdown: string): { readonly frontMatter: RootContent | undefined; readonly first: RootContent | undefined } => {
  for (let size = 4096;; size *= 4) {
    const whole = size >= markdown.length
    const tree: Root = parse(whole ? markdown : markdown.slice(0, size))
    const [a, b, c] = tree.children
    // A `---` line at the very start may open a front matter that closes past the prefix.
    const unsettled = !whole && a?.type === "thematicBreak" && a.position?.start.offset === 0
    if (!unsettled) {
      const frontMatter = a?.type === "yaml" ? a : undefined
      const first = frontMatter === undefined ? a : b
      const next = frontMatter === undefined ? b : c
      if (whole || next !== undefined) return { frontMatter, first }
    }
  }
}

const lineEnd = (markdown: string, offset: number) =>
  markdown.startsWith("\r\n", offset) ? offset + 2 : markdown[offset] === "\n" || markdown[offset] === "\r" ? offset + 1 : offset

/** Past the blank lines at `offset`, keeping the indentation of the first line that is not blank. */
const skipBlankLines = (markdown: string, offset: number) => {
  let line = offset
  let at = offset
  while (at < markdown.length) {
    const c = markdown[at]
    if (c === "\n" || c === "\r") line = at = lineEnd(markdown, at)
    else if (c === " " || c === "\t") at++
    else break
  }
  return at === markdown.length ? at : line
}

/**
 * Reads a page's markdown: GitBook's front matter (parsed as YAML with the core schema; one that is
 * not a YAML mapping stays in the body), and with `takeTitle` a first `# Heading` as the title. The
 * body is the source after them, as written.
 */
export const readPage = (markdown: string, options: { readonly takeTitle: boolean }): PageMarkdown => {
  const { frontMatter, first } = head(markdown)
  const fields = frontMatter?.type === "yaml" ? readFields(frontMatter.value) : undefined
  let offset = fields === undefined ? 0 : lineEnd(markdown, frontMatter?.position?.end.offset ?? 0)
  let title: string | undefined
  if (options.takeTitle && first?.type === "heading" && first.depth === 1 && (fields !== undefined || frontMatter === undefined)) {
    title = textOf(first)
    offset = skipBlankLines(markdown, first.position?.end.offset ?? offset)
  }
  return { ...fields, ...(title !== undefined ? { title } : {}), body: markdown.slice(offset) }
}

/**
 * A page as GitBook markdown: its front matter (only the fields given, in GitBook's keys), its title
 * as a first `# Heading`, then the body as it is.
 */
export const writePage = (fields: PageFields, body: string): string => {
  const front: Record<string, unknown> = {}
  if (fields.description !== undefined) front["description"] = fields.description
  if (fields.icon !== undefined) front["icon"] = fields.icon
  if (fields.cover !== undefined) front["cover"] = fields.cover
  if (fields.coverY !== undefined) front["coverY"] = fields.coverY
  if (fields.layout !== undefined) {
    const layout: Record<string, { visible?: boolean; size?: string }> = {}
    for (const part of layoutParts) {
      const visible = fields.layout[part]
      if (visible !== undefined) layout[part] = { visible }
    }
    if (fields.layout.coverSize !== undefined) layout["cover"] = { ...layout["cover"], size: fields.layout.coverSize }
    if (Object.keys(layout).length > 0) front["layout"] = layout
  }
  if (fields.hidden !== undefined) front["hidden"] = fields.hidden
  if (fields.noIndex !== undefined) front["noIndex"] = fields.noIndex
  if (fields.noRobotsIndex !== undefined) front["noRobotsIndex"] = fields.noRobotsIndex
  const yaml = Object.keys(front).length > 0 ? `---\n${stringifyYaml(front, { lineWidth: 0 })}---\n\n` : ""
  const title = fields.title === undefined
    ? ""
    : `${stringify({ type: "root", children: [{ type: "heading", depth: 1, children: [{ type: "text", value: fields.title }] }] })}\n`
  return `${yaml}${title}${body}`
}
