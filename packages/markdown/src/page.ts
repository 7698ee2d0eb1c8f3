import type { Root, RootContent } from "mdast"
import { isMap, isScalar, parseDocument, stringify as stringifyYaml } from "yaml"
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

/** Where a page's parts sit in its source: its front matter (when a YAML mapping), its title heading, its body. */
interface Parts {
  readonly fields: Fields | undefined
  /** The front matter's YAML, and the end of its closing fence's line. */
  readonly frontMatter: { readonly yaml: string; readonly end: number } | undefined
  readonly title: string | undefined
  readonly bodyStart: number
}

const partsOf = (markdown: string, takeTitle: boolean): Parts => {
  const { frontMatter, first } = head(markdown)
  const fields = frontMatter?.type === "yaml" ? readFields(frontMatter.value) : undefined
  const end = fields === undefined ? 0 : lineEnd(markdown, frontMatter?.position?.end.offset ?? 0)
  let offset = end
  let title: string | undefined
  if (takeTitle && first?.type === "heading" && first.depth === 1 && (fields !== undefined || frontMatter === undefined)) {
    title = textOf(first)
    offset = skipBlankLines(markdown, first.position?.end.offset ?? offset)
  }
  return {
    fields,
    frontMatter: fields !== undefined && frontMatter?.type === "yaml" ? { yaml: frontMatter.value, end } : undefined,
    title,
    bodyStart: offset
  }
}

/**
 * Reads a page's markdown: GitBook's front matter (parsed as YAML with the core schema; one that is
 * not a YAML mapping stays in the body), and with `takeTitle` a first `# Heading` as the title. The
 * body is the source after them, as written.
 */
export const readPage = (markdown: string, options: { readonly takeTitle: boolean }): PageMarkdown => {
  const parts = partsOf(markdown, options.takeTitle)
  return { ...parts.fields, ...(parts.title !== undefined ? { title: parts.title } : {}), body: markdown.slice(parts.bodyStart) }
}

/** GitBook's front-matter keys for the fields given, in GitBook's order. */
const frontOf = (fields: PageFields): Record<string, unknown> => {
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
  return front
}

const titleLine = (title: string) =>
  `${stringify({ type: "root", children: [{ type: "heading", depth: 1, children: [{ type: "text", value: title }] }] })}\n`

/**
 * A page as GitBook markdown: its front matter (only the fields given, in GitBook's keys), its title
 * as a first `# Heading`, then the body as it is.
 */
export const writePage = (fields: PageFields, body: string): string => {
  const front = frontOf(fields)
  const yaml = Object.keys(front).length > 0 ? `---\n${stringifyYaml(front, { lineWidth: 0 })}---\n\n` : ""
  return `${yaml}${fields.title === undefined ? "" : titleLine(fields.title)}${body}`
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** The known keys' values of a front matter, as `frontOf` writes them, with `layout` merged into what the source holds. */
const known = ["description", "icon", "cover", "coverY", "layout", "hidden", "noIndex", "noRobotsIndex"] as const

/**
 * The front matter's YAML with GitBook's keys set to `fields`: a key whose value did not change keeps its text
 * (YAML style, comments, folded lines), unknown keys are kept, a known key that changed is written again, and
 * `layout` keeps the parts Octavo does not model (`width`, `metadata`, `cover.mask`…). Undefined when the
 * mapping ends up empty.
 */
const patchFrontMatter = (yaml: string, before: Fields, fields: PageFields): string | undefined => {
  const document = parseDocument(yaml, { schema: "core", prettyErrors: false })
  const source = document.toJS({ maxAliasCount: MAX_ALIASES }) as Record<string, unknown> | null
  const old = frontOf(before)
  const next = frontOf(fields)
  const edits: Array<{ readonly start: number; readonly end: number; readonly text: string }> = []
  const map = isMap(document.contents) ? document.contents : undefined
  const spanOf = (key: string): { start: number; end: number } | undefined => {
    const pair = map?.items.find((item) => isScalar(item.key) && item.key.value === key)
    const keyRange = isScalar(pair?.key) ? pair.key.range : undefined
    const valueRange = pair?.value !== null && typeof pair?.value === "object" && "range" in pair.value
      ? (pair.value as { range?: [number, number, number] }).range
      : undefined
    if (keyRange === undefined || keyRange === null) return undefined
    let start = keyRange[0]
    while (start > 0 && yaml[start - 1] !== "\n") start--
    let end = valueRange?.[1] ?? keyRange[1]
    if (yaml[end - 1] !== "\n") {
      const newline = yaml.indexOf("\n", end)
      end = newline < 0 ? yaml.length : newline + 1
    }
    return { start, end }
  }
  const appended: Record<string, unknown> = {}
  let changed = false
  for (const key of known) {
    if (same(old[key], next[key])) continue
    let value = next[key]
    if (key === "layout") {
      // The parts of layout Octavo does not model stay as the source has them.
      const kept = isRecord(source?.["layout"]) ? { ...source["layout"] } : {}
      for (const part of [...layoutParts]) {
        const entry = isRecord(kept[part]) ? { ...kept[part] } : {}
        delete entry["visible"]
        if (part === "cover") delete entry["size"]
        const written = isRecord(value) && isRecord(value[part]) ? value[part] : {}
        const merged = { ...entry, ...written }
        if (Object.keys(merged).length > 0) kept[part] = merged
        else delete kept[part]
      }
      value = Object.keys(kept).length > 0 ? kept : undefined
    }
    changed = true
    const span = spanOf(key)
    const text = value === undefined ? "" : stringifyYaml({ [key]: value }, { lineWidth: 0 })
    if (span !== undefined) edits.push({ ...span, text })
    else if (value !== undefined) appended[key] = value
  }
  if (!changed) return yaml
  let out = yaml
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = `${out.slice(0, edit.start)}${edit.text}${out.slice(edit.end)}`
  if (Object.keys(appended).length > 0) {
    out = `${out}${out === "" || out.endsWith("\n") ? "" : "\n"}${stringifyYaml(appended, { lineWidth: 0 })}`
  }
  const left = parseDocument(out, { schema: "core", prettyErrors: false }).toJS({ maxAliasCount: MAX_ALIASES }) as unknown
  return isRecord(left) && Object.keys(left).length > 0 ? out : undefined
}

/**
 * `previous` (a page file as a repository holds it) changed only where `fields` and `body` differ from it, as a
 * person editing it by hand would: front-matter keys that did not change keep their text and unknown keys stay
 * (`patchFrontMatter`), a title equal to the source's keeps its heading as written, and the body is the one given.
 * A field left undefined is taken out; a `title` left undefined keeps a source without a title heading as it is.
 */
export const patchPage = (previous: string, fields: PageFields, body: string): string => {
  const parts = partsOf(previous, true)
  let front: string
  if (parts.frontMatter !== undefined && parts.fields !== undefined) {
    const yaml = patchFrontMatter(parts.frontMatter.yaml, parts.fields, fields)
    const fence = previous.slice(0, parts.frontMatter.end)
    front = yaml === parts.frontMatter.yaml
      ? fence
      : yaml === undefined
      ? ""
      : `---\n${yaml}${yaml.endsWith("\n") ? "" : "\n"}---\n`
  } else {
    const created = frontOf(fields)
    front = Object.keys(created).length > 0 ? `---\n${stringifyYaml(created, { lineWidth: 0 })}---\n\n` : ""
  }
  const between = previous.slice(parts.frontMatter?.end ?? 0, parts.bodyStart)
  const titled = fields.title === undefined || fields.title === parts.title
    ? between
    : `${/^(?:[ \t]*\r?\n)*/.exec(between)?.[0] ?? ""}${titleLine(fields.title)}`
  return `${front}${titled}${body}`
}
