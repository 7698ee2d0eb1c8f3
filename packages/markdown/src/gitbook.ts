// GitBook's Git Sync files besides pages: `.gitbook.yaml` and `SUMMARY.md` (conventions.md, "Git Sync format").
import type { List, ListItem, Root, RootContent } from "mdast"
import { parseDocument } from "yaml"
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
  // eslint-disable-next-line no-control-regex
  const printable = !/[\u0000-\u001f\u007f\\]/.test(cleaned)
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
}

const itemsOf = (list: List): Array<SummaryItem> => list.children.map(itemOf)

const itemOf = (item: ListItem): SummaryItem => {
  let title = ""
  let target: string | undefined
  const items: Array<SummaryItem> = []
  for (const child of item.children) {
    if (child.type === "list") items.push(...itemsOf(child))
    else if (title === "" && target === undefined && child.type === "paragraph") {
      const link = child.children.find((c) => c.type === "link")
      if (link !== undefined && link.type === "link") {
        title = textOf(link).trim()
        target = link.url
      } else {
        title = textOf(child).trim()
      }
    }
  }
  return { kind: "item", title, target, items }
}

/** The entries of a `SUMMARY.md`: its `# ` title is skipped; items before the first `## ` are ungrouped. */
export const readSummary = (markdown: string): ReadonlyArray<SummaryEntry> => {
  const tree: Root = parse(markdown)
  const entries: Array<SummaryEntry> = []
  let group: { kind: "group"; title: string; items: Array<SummaryItem> } | undefined
  for (const node of tree.children) {
    if (node.type === "heading" && node.depth === 2) {
      group = { kind: "group", title: textOf(node).trim(), items: [] }
      entries.push(group)
    } else if (node.type === "list") {
      const items = itemsOf(node)
      if (group !== undefined) group.items.push(...items)
      else entries.push(...items)
    }
  }
  return entries
}

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
          : [{ type: "link", url: item.target, children: [{ type: "text", value: item.title }] }]
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
