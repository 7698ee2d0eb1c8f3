import { type Link, rewriteLinks } from "@octavo/markdown"
import { Effect } from "effect"
import { type HeavyWorkRunner, linkKey, rewriteLinksTask, type Unreadable } from "../shared/HeavyWork.js"
import type { FileId, PageId } from "../shared/Ids.js"
import type { ContentPage, RevisionContent } from "./Page.js"

// Where a link written in a page leads, in the forms GitBook accepts (the `updateChangeRequestContent`
// description): page ids and paths under `/pages/`, Git-style markdown paths relative to the page,
// batch refs, and `/files/<fileId>`. Stored links are canonical: `/pages/<pageId>[#anchor]` and
// `/files/<fileId>`, so that a link follows its page through renames and moves.

export type Reached =
  /** Outside the content (a URL with a scheme, `//host`, `mailto:`), or an anchor of the page itself. */
  | { readonly kind: "external" }
  | { readonly kind: "page"; readonly page: PageId; readonly anchor: string | undefined }
  | { readonly kind: "file"; readonly file: FileId }
  /** Meant for the content, but nothing there answers to it. */
  | { readonly kind: "nowhere" }

/** Batch-local names given by `ref` on `insert_page` and `insert_files`. */
export interface BatchRefs {
  readonly pages: ReadonlyMap<string, PageId>
  readonly files: ReadonlyMap<string, FileId>
}

export const noRefs: BatchRefs = { pages: new Map(), files: new Map() }

/** The canonical form of a reached target, as stored in markdown. */
export const canonicalUrl = (reached: Reached): string | undefined =>
  reached.kind === "page"
    ? `/pages/${reached.page}${reached.anchor === undefined ? "" : `#${reached.anchor}`}`
    : reached.kind === "file"
    ? `/files/${reached.file}`
    : undefined

/** Siblings in order: by position key, ties broken by id. */
export const byPosition = (
  a: ContentPage,
  b: ContentPage
) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1)

const hasScheme = /^[a-z][a-z0-9+.-]*:/i

/** Joins `target` onto the directory `dir` (segments), resolving `.` and `..` (which stops at the root, as a browser's does). */
const join = (dir: ReadonlyArray<string>, target: string): string => {
  const parts = target.startsWith("/") ? [] : [...dir]
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") parts.pop()
    else parts.push(segment)
  }
  return parts.join("/")
}

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * The paths of a revision's pages, built once and shared by every link it resolves: each page by
 * its slug path (`guides/install`), its Git file (`guides/install.md`, or `guides/README.md` for a
 * page with subpages) and, for the first page, `README.md`. Built on first use: a batch whose links
 * are all external, or already canonical, never walks the tree for them.
 */
export const pathIndex = (content: RevisionContent): PathIndex => {
  let built: PathIndex | undefined
  const index = () => (built ??= buildPathIndex(content))
  return {
    get byPath() {
      return index().byPath
    },
    get pathOf() {
      return index().pathOf
    },
    get gitFileOf() {
      return index().gitFileOf
    },
    get filesByName() {
      return index().filesByName
    }
  }
}

export interface PathIndex {
  readonly byPath: ReadonlyMap<string, PageId>
  readonly pathOf: ReadonlyMap<PageId, string>
  readonly gitFileOf: ReadonlyMap<PageId, string>
  readonly filesByName: ReadonlyMap<string, FileId>
}

const buildPathIndex = (content: RevisionContent): PathIndex => {
  const children = new Map<PageId | null, Array<ContentPage>>()
  for (const page of content.pages.values()) {
    const siblings = children.get(page.parentId) ?? []
    siblings.push(page)
    children.set(page.parentId, siblings)
  }
  const byPath = new Map<string, PageId>()
  const pathOf = new Map<PageId, string>()
  const gitFileOf = new Map<PageId, string>()
  const visit = (parentId: PageId | null, prefix: string) => {
    for (const page of (children.get(parentId) ?? []).sort(byPosition)) {
      const path = prefix === "" ? page.slug : `${prefix}/${page.slug}`
      pathOf.set(page.id, path)
      const hasChildren = (children.get(page.id)?.length ?? 0) > 0
      gitFileOf.set(page.id, hasChildren ? `${path}/README.md` : `${path}.md`)
      for (const alias of [path, `${path}.md`, `${path}/README.md`, `${path}/readme.md`]) {
        if (!byPath.has(alias)) byPath.set(alias, page.id)
      }
      visit(page.id, path)
    }
  }
  visit(null, "")
  // The first page is the first document in reading order, groups being only headings.
  const firstIn = (parentId: PageId | null): ContentPage | undefined => {
    for (const page of (children.get(parentId) ?? []).sort(byPosition)) {
      const found = page.kind === "document" ? page : page.kind === "group" ? firstIn(page.id) : undefined
      if (found !== undefined) return found
    }
    return undefined
  }
  const first = firstIn(null)
  if (first !== undefined) {
    byPath.set("README.md", first.id)
    byPath.set("readme.md", first.id)
    byPath.set("", first.id)
    gitFileOf.set(first.id, "README.md")
  }
  const filesByName = new Map<string, FileId>()
  for (const file of content.files.values()) if (!filesByName.has(file.name)) filesByName.set(file.name, file.id)
  return { byPath, pathOf, gitFileOf, filesByName }
}

/** Where `url`, written in page `from` (null: at the root of the content), leads in `content`. */
export const resolveLink = (
  content: RevisionContent,
  paths: PathIndex,
  from: PageId | null,
  url: string,
  refs: BatchRefs = noRefs
): Reached => {
  const raw = url.trim()
  if (raw === "" || raw.startsWith("#") || raw.startsWith("//") || hasScheme.test(raw)) return { kind: "external" }
  const hash = raw.indexOf("#")
  const anchor = hash === -1 ? undefined : raw.slice(hash + 1) || undefined
  const target = decode(raw.slice(0, hash === -1 ? raw.length : hash).replace(/\?.*$/, ""))
  // Only a query or an anchor: the page itself, left as written.
  if (target === "") return { kind: "external" }
  const page = (id: PageId | undefined): Reached => id === undefined ? { kind: "nowhere" } : { kind: "page", page: id, anchor }
  const file = (id: FileId | undefined): Reached => id === undefined ? { kind: "nowhere" } : { kind: "file", file: id }

  if (target.startsWith("/pages/")) {
    const rest = target.slice("/pages/".length).replace(/\/+$/, "")
    const byId = content.pages.get(rest as PageId)
    return page(byId?.id ?? paths.byPath.get(rest))
  }
  if (target.startsWith("/files/")) {
    const id = target.slice("/files/".length).replace(/\/+$/, "") as FileId
    return file(content.files.has(id) ? id : undefined)
  }

  // A Git path, relative to the directory of the page's Git file, or from the root: a page there wins.
  const gitFile = from === null ? "" : paths.gitFileOf.get(from) ?? ""
  const dir = gitFile.split("/").slice(0, -1)
  const cleaned = join(dir, target).replace(/\/+$/, "")
  const found = paths.byPath.get(cleaned)
  if (found !== undefined) return page(found)

  // Batch refs: `./<ref>`, `<ref>`, and `./<ref>.md` for a page.
  const bare = target.replace(/^\.\//, "")
  const pageRef = refs.pages.get(bare) ?? refs.pages.get(bare.replace(/\.md$/i, ""))
  if (pageRef !== undefined) return page(pageRef)
  const fileRef = refs.files.get(bare)
  if (fileRef !== undefined) return file(fileRef)

  // Files: by their name, wherever the path put them (`.gitbook/assets/<name>`, `../assets/<name>`).
  const name = cleaned.split("/").pop() ?? ""
  return file(name === "" ? undefined : paths.filesByName.get(name))
}

/** What `resolveLinksIn` does with a url: undefined leaves it, null takes the link out, a string replaces it. */
const canonicalDecision = (content: RevisionContent, paths: PathIndex, from: PageId | null, url: string, refs: BatchRefs) => {
  const reached = resolveLink(content, paths, from, url, refs)
  return reached.kind === "external" ? undefined : reached.kind === "nowhere" ? null : canonicalUrl(reached)
}

/**
 * Markdown written in page `from` (null: at the root) with its links to the content made canonical:
 * links that lead nowhere become plain text, external links stay. Throws on markdown the parser
 * cannot hold (nested thousands deep): callers turn that into invalid input.
 */
export const resolveLinksIn = (
  markdown: string,
  content: RevisionContent,
  paths: PathIndex,
  from: PageId | null,
  refs: BatchRefs = noRefs
): string => rewriteLinks(markdown, (link) => canonicalDecision(content, paths, from, link.url, refs))

/**
 * `resolveLinksIn` with its parses on `work`, given the page's `links` (`linksTask`): the page is
 * parsed again to rewrite it only when one of its links changes.
 */
export const resolveLinksWith = (
  work: HeavyWorkRunner,
  markdown: string,
  links: ReadonlyArray<Link>,
  content: RevisionContent,
  paths: PathIndex,
  from: PageId | null,
  refs: BatchRefs = noRefs
): Effect.Effect<string, Unreadable> => {
  const decisions: Array<readonly [string, string | null]> = []
  for (const link of links) {
    const decision = canonicalDecision(content, paths, from, link.url, refs)
    if (decision !== undefined && decision !== link.url) decisions.push([linkKey(link), decision])
  }
  return decisions.length === 0 ? Effect.succeed(markdown) : work.run(rewriteLinksTask, markdown, decisions)
}
