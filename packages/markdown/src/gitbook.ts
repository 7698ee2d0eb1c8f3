// GitBook's Git Sync files besides pages: `.gitbook.yaml` and `SUMMARY.md` (conventions.md, "Git Sync format").
import type { List, ListItem, Root, RootContent } from "mdast"
import { parseDocument, stringify as stringifyYaml } from "yaml"
import { parse } from "./parse.js"
import { stringify } from "./stringify.js"
import { textOf } from "./text.js"

/** `.gitbook.yaml`: where the content sits in the project directory, its two special files, and its redirects. */
export interface GitbookConfig {
  /** The content root, relative to the project directory, without leading `./` or trailing `/` ("" for the directory itself). */
  readonly root: string
  readonly readme: string
  readonly summary: string
  /** `redirects:`, the valid entries in the file's order; absent when it declares none. */
  readonly redirects?: ReadonlyArray<GitbookRedirect>
}

/** One entry of `redirects:`: an old path and the file it now leads to, both relative to the content root. */
export interface GitbookRedirect {
  /** Cleaned as paths are (no leading `./` or `/`, no trailing `/`). */
  readonly source: string
  readonly target: string
}

/** Entries of `redirects:` read, at most. */
export const MAX_GITBOOK_REDIRECTS = 5000

/** The longest path of a redirect's either side. */
const MAX_REDIRECT_PATH = 1024

export const defaultGitbookConfig: GitbookConfig = { root: "", readme: "README.md", summary: "SUMMARY.md" }

const cleanPath = (path: string): string => path.replace(/^(\.\/)+/, "").replace(/^\/+|\/+$/g, "").replace(/^\.$/, "")

// A relative path that stays inside the project: no `..` segment, no absolute path.
const isInside = (path: string): boolean => !path.split("/").some((segment) => segment === "..")

/** Reads `.gitbook.yaml`; what is missing, invalid or points outside the project takes the default. */
export const readGitbookConfig = (text: string): GitbookConfig => {
  // A key repeated (a redirect listed twice, say) takes its last value, as YAML readers that allow it do.
  const document = parseDocument(text, { schema: "core", prettyErrors: false, uniqueKeys: false })
  if (document.errors.length > 0) return defaultGitbookConfig
  let value: unknown
  try {
    value = document.toJS({ maxAliasCount: 10 })
  } catch {
    return defaultGitbookConfig
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return defaultGitbookConfig
  const record = value as Record<string, unknown>
  const path = (candidate: unknown, fallback: string): string => {
    if (typeof candidate !== "string") return fallback
    const cleaned = cleanPath(candidate)
    return isInside(cleaned) ? cleaned : fallback
  }
  const structure = typeof record["structure"] === "object" && record["structure"] !== null
    ? record["structure"] as Record<string, unknown>
    : {}
  const readme = path(structure["readme"], defaultGitbookConfig.readme)
  const summary = path(structure["summary"], defaultGitbookConfig.summary)
  const redirects = redirectsOf(record["redirects"])
  return {
    root: path(record["root"], ""),
    readme: readme === "" ? defaultGitbookConfig.readme : readme,
    summary: summary === "" ? defaultGitbookConfig.summary : summary,
    ...(redirects.length > 0 ? { redirects } : {})
  }
}

/** A side of a redirect: a path inside the project, of printable characters; "" when it is not one. */
const redirectPath = (candidate: unknown): string => {
  if (typeof candidate !== "string" && typeof candidate !== "number") return ""
  const cleaned = cleanPath(String(candidate).trim())
  const printable = !/[\p{Cc}\\]/u.test(cleaned)
  return cleaned.length <= MAX_REDIRECT_PATH && printable && isInside(cleaned) ? cleaned : ""
}

/**
 * `redirects:`, a mapping of old paths to files: entries whose either side is not a path inside the project (empty,
 * climbing out, not text) are left out, the first of two sources that clean to one path is kept, and at most
 * MAX_GITBOOK_REDIRECTS are read.
 */
const redirectsOf = (value: unknown): Array<GitbookRedirect> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return []
  const redirects: Array<GitbookRedirect> = []
  const seen = new Set<string>()
  for (const [key, target] of Object.entries(value as Record<string, unknown>)) {
    const source = redirectPath(key)
    const file = redirectPath(target)
    if (source === "" || file === "" || seen.has(source)) continue
    seen.add(source)
    redirects.push({ source, target: file })
    if (redirects.length === MAX_GITBOOK_REDIRECTS) break
  }
  return redirects
}

/** `.gitbook.yaml` as a new branch gets it: GitBook's keys spelled out, then the redirects, if any. */
export const writeGitbookConfig = (config: GitbookConfig): string => {
  const structure = `root: ./${
    config.root === "" ? "" : `${config.root}/`
  }\n\nstructure:\n  readme: ${config.readme}\n  summary: ${config.summary}\n`
  const redirects = config.redirects ?? []
  if (redirects.length === 0) return structure
  const entries = Object.fromEntries(redirects.map((r) => [r.source, r.target]))
  return `${structure}\n${stringifyYaml({ redirects: entries }, { lineWidth: 0 })}`
}

/** An entry of `SUMMARY.md`: a `## Group` heading with its items, or a list item (a page or a link) with its nested items. */
export type SummaryEntry =
  | { readonly kind: "group"; readonly title: string; readonly items: ReadonlyArray<SummaryItem> }
  | SummaryItem

export interface SummaryItem {
  readonly kind: "item"
  readonly title: string
  /** The link's target as written (a path relative to the content root, or an absolute URL); undefined for an item without a link. */
  readonly target: string | undefined
  readonly items: ReadonlyArray<SummaryItem>
  /**
   * An item that is not a page: no link and a block other than a paragraph (GitBook's fenced `builtin:openapi`
   * entries). An import makes nothing of it; \`patchSummary\` keeps it as written.
   */
  readonly kept?: true
  /** The link's title, GitBook's navigation label (`[Toolbar](toolbar.md "Toolbar")`): what a sidebar shows. */
  readonly label?: string
}

/** Where an item's own text sits in the source (its content after the list marker, its nested list aside). */
interface Span {
  readonly start: number
  readonly end: number
}

/** A summary as read, with where each item and group sits, so that \`patchSummary\` can keep their text. */
interface Read {
  readonly entries: Array<SummaryEntry>
  readonly items: Map<SummaryItem, Span>
  readonly groups: Map<SummaryEntry, Span>
  /** The entries (groups and items) a `***` line comes before. */
  readonly separated: Set<SummaryEntry>
  title: Span | undefined
}

const spanOf = (
  node: { readonly position?: { readonly start: { readonly offset?: number }; readonly end: { readonly offset?: number } } }
) =>
  node.position?.start.offset === undefined || node.position.end.offset === undefined
    ? undefined
    : { start: node.position.start.offset, end: node.position.end.offset }

const readWithSpans = (markdown: string): Read => {
  const tree: Root = parse(markdown)
  const read: Read = { entries: [], items: new Map(), groups: new Map(), separated: new Set(), title: undefined }
  const itemsOf = (list: List): Array<SummaryItem> => list.children.map(itemOf)
  const itemOf = (node: ListItem): SummaryItem => {
    let title = ""
    let target: string | undefined
    let label: string | undefined
    let other = false
    const items: Array<SummaryItem> = []
    for (const child of node.children) {
      if (child.type === "list") items.push(...itemsOf(child))
      else if (title === "" && target === undefined && child.type === "paragraph") {
        const link = child.children.find((c) => c.type === "link")
        if (link !== undefined && link.type === "link") {
          title = textOf(link).trim()
          target = link.url
          label = link.title ?? undefined
        } else {
          title = textOf(child).trim()
        }
      } else if (child.type !== "paragraph") other = true
    }
    const item: SummaryItem = {
      kind: "item",
      title,
      target,
      items,
      ...(target === undefined && title === "" && other ? { kept: true as const } : {}),
      ...(label !== undefined && label !== "" ? { label } : {})
    }
    const first = spanOf(node.children[0] ?? node)
    const nested = node.children.find((c) => c.type === "list")
    const end = nested === undefined ? spanOf(node)?.end : spanOf(nested)?.start
    if (first !== undefined && end !== undefined) read.items.set(item, { start: first.start, end })
    return item
  }
  let group: { kind: "group"; title: string; items: Array<SummaryItem> } | undefined
  let separator = false
  const mark = (entry: SummaryEntry) => {
    if (separator) read.separated.add(entry)
    separator = false
  }
  for (const node of tree.children) {
    if (node.type === "heading" && node.depth === 1 && read.title === undefined && read.entries.length === 0) {
      read.title = spanOf(node)
    } else if (node.type === "heading" && node.depth === 2) {
      group = { kind: "group", title: textOf(node).trim(), items: [] }
      const span = spanOf(node)
      if (span !== undefined) read.groups.set(group, span)
      mark(group)
      read.entries.push(group)
    } else if (node.type === "thematicBreak") {
      separator = true
    } else if (node.type === "list") {
      const items = itemsOf(node)
      if (items[0] !== undefined) mark(items[0])
      if (group !== undefined) group.items.push(...items)
      else read.entries.push(...items)
    }
  }
  return read
}

/** The entries of a `SUMMARY.md`: its `# ` title is skipped; items before the first `## ` are ungrouped. */
export const readSummary = (markdown: string): ReadonlyArray<SummaryEntry> => readWithSpans(markdown).entries

const listOf = (items: ReadonlyArray<SummaryItem>): List => ({
  type: "list",
  ordered: false,
  spread: false,
  children: items.map((item): ListItem => ({
    type: "listItem",
    spread: false,
    children: [
      {
        type: "paragraph",
        children: item.target === undefined
          ? [{ type: "text", value: item.title }]
          : [{ type: "link", url: item.target, title: item.label ?? null, children: [{ type: "text", value: item.title }] }]
      },
      ...(item.items.length > 0 ? [listOf(item.items)] : [])
    ]
  }))
})

/** A `SUMMARY.md` with the `# Table of contents` title, its ungrouped items, then its groups. */
export const writeSummary = (entries: ReadonlyArray<SummaryEntry>): string => {
  const children: Array<RootContent> = [{ type: "heading", depth: 1, children: [{ type: "text", value: "Table of contents" }] }]
  let pending: Array<SummaryItem> = []
  const flush = () => {
    if (pending.length > 0) children.push(listOf(pending))
    pending = []
  }
  for (const entry of entries) {
    if (entry.kind === "item") pending.push(entry)
    else {
      flush()
      children.push({ type: "heading", depth: 2, children: [{ type: "text", value: entry.title }] })
      if (entry.items.length > 0) children.push(listOf(entry.items))
    }
  }
  flush()
  return stringify({ type: "root", children })
}

/** Two summaries' entries that say the same thing: kinds, titles, targets as written and nesting; kept items aside. */
const sameEntries = (a: ReadonlyArray<SummaryEntry>, b: ReadonlyArray<SummaryEntry>): boolean => {
  const shown = (entries: ReadonlyArray<SummaryEntry>) => entries.filter((e) => e.kind === "group" || e.kept !== true)
  const x = shown(a)
  const y = shown(b)
  return x.length === y.length && x.every((e, i) => {
    const f = y[i] as SummaryEntry
    if (e.kind !== f.kind || e.title !== f.title) return false
    if (e.kind === "group" || f.kind === "group") return e.kind === "group" && f.kind === "group" && sameEntries(e.items, f.items)
    return e.target === f.target && e.label === f.label && sameEntries(e.items, f.items)
  })
}

/** `text` with its lines after the first moved from `from` columns of indentation to `to`. */
const reindent = (text: string, from: number, to: string): string =>
  text.split("\n").map((line, i) => i === 0 ? line : `${to}${line.slice(Math.min(from, line.length - line.trimStart().length))}`).join(
    "\n"
  )

const columnOf = (markdown: string, offset: number) => offset - (markdown.lastIndexOf("\n", offset - 1) + 1)

/**
 * `previous` (a repository's SUMMARY.md) with \`entries\` in place of its own, changed only where they differ, as a
 * person editing it by hand would: when the entries are the ones it holds it is kept byte for byte; otherwise it is
 * written again, and each item whose target is still listed with the same text keeps its text as written (a
 * navigation label, escapes), a group whose title did not change keeps its heading (an anchor), a `***` line stays
 * before the entry it came before, and kept items (fenced `builtin:openapi` entries) stay after the item they
 * followed.
 */
export const patchSummary = (previous: string, entries: ReadonlyArray<SummaryEntry>): string => {
  const read = readWithSpans(previous)
  if (sameEntries(read.entries, entries)) return previous
  const textOfItem = new Map<string, string>()
  const keptAfter = new Map<string, Array<string>>()
  const separatedTargets = new Set<string>()
  const separatedGroups = new Set<string>()
  const groupHeading = new Map<string, string>()
  const own = (item: SummaryItem) => {
    const span = read.items.get(item)
    return span === undefined ? undefined : { text: previous.slice(span.start, span.end).trimEnd(), column: columnOf(previous, span.start) }
  }
  const index = (items: ReadonlyArray<SummaryItem>, parentKey: string) => {
    let anchor = `${parentKey}>`
    for (const item of items) {
      if (item.kept === true) {
        const text = own(item)
        if (text !== undefined) keptAfter.set(anchor, [...(keptAfter.get(anchor) ?? []), reindent(text.text, text.column, "")])
        continue
      }
      const key = `${item.target ?? ""}|${item.title}`
      const text = own(item)
      if (text !== undefined && !textOfItem.has(key)) textOfItem.set(key, reindent(text.text, text.column, ""))
      if (read.separated.has(item)) separatedTargets.add(key)
      anchor = key
      index(item.items, key)
    }
  }
  for (const entry of read.entries) {
    if (entry.kind === "group") {
      const span = read.groups.get(entry)
      if (span !== undefined && !groupHeading.has(entry.title)) groupHeading.set(entry.title, previous.slice(span.start, span.end))
      if (read.separated.has(entry)) separatedGroups.add(entry.title)
      index(entry.items, `## ${entry.title}`)
    }
  }
  index(read.entries.flatMap((e) => e.kind === "item" ? [e] : []), "")

  const written = (item: SummaryItem) =>
    stringify({ type: "root", children: [listOf([{ ...item, items: [] }])] }).trimEnd().replace(/^[*+-] /, "")
  const lines: Array<string> = []
  const list = (items: ReadonlyArray<SummaryItem>, parentKey: string, depth: number) => {
    const indent = "  ".repeat(depth)
    const kept = (anchor: string) => {
      for (const text of keptAfter.get(anchor) ?? []) lines.push(`${indent}* ${reindent(text, 0, `${indent}  `)}`)
    }
    kept(`${parentKey}>`)
    for (const item of items) {
      const key = `${item.target ?? ""}|${item.title}`
      if (depth === 0 && separatedTargets.has(key) && lines.length > 0) lines.push("", "***", "")
      const text = textOfItem.get(key) ?? written(item)
      lines.push(`${indent}* ${reindent(text, 0, `${indent}  `)}`)
      kept(key)
      list(item.items, key, depth + 1)
    }
  }
  lines.push(read.title === undefined ? "# Table of contents" : previous.slice(read.title.start, read.title.end), "")
  const ungrouped = entries.flatMap((e) => e.kind === "item" ? [e] : [])
  if (ungrouped.length > 0) {
    list(ungrouped, "", 0)
    lines.push("")
  }
  for (const entry of entries) {
    if (entry.kind !== "group") continue
    if (separatedGroups.has(entry.title)) lines.push("***", "")
    lines.push(groupHeading.get(entry.title) ?? `## ${entry.title}`, "")
    if (entry.items.length > 0) {
      list(entry.items, `## ${entry.title}`, 0)
      lines.push("")
    }
  }
  return `${lines.join("\n").trimEnd()}\n`
}
