import type { PageNode } from "../content/Changes.js"
import type { ContentPage, File, RevisionContent } from "../content/Page.js"
import { type PathIndex, pathIndex, resolveLink } from "../content/Resolve.js"
import type { PageId, SiteSectionId, SiteSpaceId } from "../shared/Ids.js"
import { evaluateCondition, parseCondition } from "../sites/Condition.js"
import { type ShownTree, siteSpaceSegments } from "../sites/Reading.js"
import type { SiteSection, SiteSectionGroup, SiteSpace } from "../sites/Site.js"
import { hasSections, rootItems, type Scope, sectionsIn, sectionsInOrder, siteSpacesIn } from "../sites/Structure.js"

/**
 * How a published site reads to one visitor (issue 20, conventions-2.md §1.3, §1.5): which sections
 * and site spaces the visitor's claims let through, where the segments of a URL lead, and the page
 * tree as a reader walks it. Pure: the reader's use cases load, these decide.
 */

/** Whether an item with this condition shows to a visitor with these claims; without adaptive content, every item shows. */
export const conditionHolds = (condition: string | null, claims: unknown, adaptive: boolean): boolean => {
  if (!adaptive || condition === null) return true
  const parsed = parseCondition(condition)
  return parsed._tag === "Right" && evaluateCondition(parsed.expr, claims)
}

/** The tree as one visitor sees it: sections and site spaces whose condition is false are left out, defaults moving on. */
export const visitorTree = (shown: ShownTree, claims: unknown): ShownTree => {
  const { tree } = shown
  const adaptive = tree.site.adaptiveContent
  const sections = tree.sections.filter((s) => conditionHolds(s.condition, claims, adaptive))
  const kept = new Set<SiteSectionId | null>([null, ...sections.map((s) => s.id)])
  const siteSpaces = tree.siteSpaces.filter((s) => kept.has(s.sectionId) && conditionHolds(s.condition, claims, adaptive))
  // A section left without site spaces has nothing to show.
  const filled = sections.filter((s) => siteSpaces.some((ss) => ss.sectionId === s.id))
  const next = { ...tree, sections: filled, siteSpaces }
  const defaults = new Set<SiteSpaceId>()
  const scopes: Array<Scope> = hasSections(next) ? filled.map((s) => s.id) : [null]
  for (const scope of scopes) {
    const members = siteSpacesIn(next, scope)
    const dflt = members.find((s) => shown.defaults.has(s.id)) ?? members[0]
    if (dflt !== undefined) defaults.add(dflt.id)
  }
  const defaultSectionId = filled.some((s) => s.id === tree.site.defaultSectionId)
    ? tree.site.defaultSectionId
    : filled.length > 0
    ? sectionsInOrder(next)[0]!.id
    : null
  return { tree: { ...next, site: { ...tree.site, defaultSectionId } }, defaults }
}

/** Where a URL's segments after the site's address lead: a site space, and the page path left over. */
export interface Located {
  readonly section: SiteSection | undefined
  readonly siteSpace: SiteSpace
  readonly pagePath: ReadonlyArray<string>
}

/**
 * Reads `[section path/][site-space path/][page path]`: a first segment naming a section (not the
 * default one, whose site spaces sit at the site's address) selects it, then a segment naming a
 * site space of that scope (not its default) selects it; the rest is the page's path.
 */
export const locate = (shown: ShownTree, segments: ReadonlyArray<string>): Located | undefined => {
  const { tree } = shown
  let rest = segments
  let section: SiteSection | undefined
  if (hasSections(tree)) {
    const named = tree.sections.find((s) => s.id !== tree.site.defaultSectionId && s.path === rest[0])
    section = named ?? tree.sections.find((s) => s.id === tree.site.defaultSectionId)
    if (named !== undefined) rest = rest.slice(1)
    if (section === undefined) return undefined
  }
  const scope: Scope = section?.id ?? null
  const members = siteSpacesIn(tree, scope)
  const named = members.find((s) => !shown.defaults.has(s.id) && s.path === rest[0])
  const siteSpace = named ?? members.find((s) => shown.defaults.has(s.id))
  if (named !== undefined) rest = rest.slice(1)
  if (siteSpace === undefined) return undefined
  return { section, siteSpace, pagePath: rest }
}

/** A site space's address after the site's: its section's segment, then its own, each left out for a default. */
export const siteSpaceAddress = (shown: ShownTree, siteSpace: SiteSpace): string => siteSpaceSegments(shown, siteSpace).join("/")

/** The root's items as a reader's tabs: sections, and groups with the sections under them. */
export type SectionTab =
  | { readonly kind: "section"; readonly section: SiteSection }
  | { readonly kind: "group"; readonly group: SiteSectionGroup; readonly sections: ReadonlyArray<SiteSection> }

export const sectionTabs = (shown: ShownTree): ReadonlyArray<SectionTab> =>
  rootItems(shown.tree).flatMap((item): Array<SectionTab> => {
    if (item.kind === "section") {
      const section = shown.tree.sections.find((s) => s.id === item.id)
      return section === undefined ? [] : [{ kind: "section", section }]
    }
    const sections = sectionsIn(shown.tree, item.id)
    const group = shown.tree.groups.find((g) => g.id === item.id)!
    return sections.length === 0 ? [] : [{ kind: "group", group, sections }]
  })

/** The pages a reader can open (documents), in reading order: depth first, parents before children. */
export const readingOrder = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> => {
  const out: Array<PageNode> = []
  const walk = (list: ReadonlyArray<PageNode>) =>
    list.forEach((node) => {
      if (node.page.kind === "document") out.push(node)
      walk(node.pages)
    })
  walk(nodes)
  return out
}

/** What page reads look up, made once per revision (and per visitor's claims with adaptive content). */
export interface PageIndex {
  /** The pages a reader can open or reach: conditions applied, hidden ones included. */
  readonly pages: ReadonlyArray<PageNode>
  /** The sidebar: without hidden pages. */
  readonly navigation: ReadonlyArray<PageNode>
  readonly byPath: ReadonlyMap<string, PageNode>
  readonly byId: ReadonlyMap<PageId, PageNode>
  /** The sidebar's documents in reading order, and each one's place in it. */
  readonly order: ReadonlyArray<PageNode>
  readonly placeOf: ReadonlyMap<PageId, number>
  /** The page the space's address opens. */
  readonly first: PageNode | undefined
}

const withoutHidden = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> =>
  nodes.filter((n) => !n.page.hidden).map((n) => ({ ...n, pages: withoutHidden(n.pages) }))

export const indexPages = (pages: ReadonlyArray<PageNode>): PageIndex => {
  const byPath = new Map<string, PageNode>()
  const byId = new Map<PageId, PageNode>()
  const walk = (list: ReadonlyArray<PageNode>) =>
    list.forEach((n) => {
      byPath.set(n.path, n)
      byId.set(n.page.id, n)
      walk(n.pages)
    })
  walk(pages)
  const navigation = withoutHidden(pages)
  const order = readingOrder(navigation)
  return {
    pages,
    navigation,
    byPath,
    byId,
    order,
    placeOf: new Map(order.map((n, i) => [n.page.id, i] as const)),
    first: order[0] ?? readingOrder(pages)[0]
  }
}

/** The page a path opens: the first document for an empty path, a group's first document for a group. */
export const pageAtPath = (index: PageIndex, path: string): PageNode | undefined => {
  if (path === "") return index.first
  const found = index.byPath.get(path)
  if (found === undefined || found.page.kind === "link") return undefined
  return found.page.kind === "document" ? found : readingOrder(found.pages)[0]
}

/** The sidebar's documents before and after a page in reading order. */
export const neighbours = (index: PageIndex, page: ContentPage) => {
  const at = index.placeOf.get(page.id) ?? -1
  return { previous: at > 0 ? index.order[at - 1] : undefined, next: at >= 0 ? index.order[at + 1] : undefined }
}

/** Where a link of a page leads for a reader. */
export type ReaderLink =
  | { readonly kind: "external"; readonly url: string }
  | { readonly kind: "page"; readonly path: string; readonly anchor: string | undefined }
  | { readonly kind: "file"; readonly file: File }
  | { readonly kind: "nowhere" }

/**
 * Where each url written in page `from` leads among the pages a reader can reach (`index`): a page by
 * its path (a group by its first document), a file of the revision, an http(s) or mailto URL or an
 * anchor as written; anything else (a page gone, a path to nowhere, another scheme) leads nowhere.
 */
export const linksFrom = (
  content: RevisionContent,
  index: PageIndex,
  from: PageId,
  paths: PathIndex = pathIndex(content)
) => {
  return (url: string): ReaderLink => {
    const reached = resolveLink(content, paths, from, url)
    switch (reached.kind) {
      case "external":
        return /^(https?:|mailto:|#)/i.test(url.trim()) ? { kind: "external", url: url.trim() } : { kind: "nowhere" }
      case "page": {
        const target = index.byId.get(reached.page)
        if (target === undefined) return { kind: "nowhere" }
        const opened = target.page.kind === "document" ? target : readingOrder(target.pages)[0]
        return opened === undefined ? { kind: "nowhere" } : { kind: "page", path: opened.path, anchor: reached.anchor }
      }
      case "file": {
        const file = content.files.get(reached.file)
        return file === undefined ? { kind: "nowhere" } : { kind: "file", file }
      }
      default:
        return { kind: "nowhere" }
    }
  }
}

/**
 * The unsigned claims a visitor's URL gives (`?visitor.<name>=`, conventions-2.md §1.3): only names the
 * adaptive schema declares under `unsigned`, read as its type says (a boolean from `true`/`false`, a
 * number from a finite decimal, else the text); anything else is left out.
 */
export const unsignedClaims = (
  schema: unknown,
  given: ReadonlyArray<readonly [string, string]>
): Readonly<Record<string, string | number | boolean>> => {
  const record = (value: unknown): Readonly<Record<string, unknown>> | undefined =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? value as Readonly<Record<string, unknown>> : undefined
  const properties = record(record(record(record(schema)?.["properties"])?.["unsigned"])?.["properties"])
  const claims: Record<string, string | number | boolean> = {}
  if (properties === undefined) return claims
  for (const [name, text] of given) {
    if (!Object.hasOwn(properties, name)) continue
    const type = record(properties[name])?.["type"]
    const value = type === "boolean"
      ? (text === "true" ? true : text === "false" ? false : undefined)
      : type === "number" || type === "integer"
      ? (/^-?\d+(\.\d+)?$/.test(text) && (type === "number" || !text.includes(".")) ? Number(text) : undefined)
      : type === "string" || type === undefined
      ? text
      : undefined
    if (value !== undefined) Object.defineProperty(claims, name, { value, enumerable: true, writable: true, configurable: true })
  }
  return claims
}
