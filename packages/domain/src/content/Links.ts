import type { FileId, PageId } from "../shared/Ids.js"
import { pathOf } from "./Changes.js"
import type { RevisionContent } from "./Page.js"

export type LinkStatus = "ok" | "broken" | "in-app"

export type LinkTarget =
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "page"; readonly page: PageId }
  | { readonly kind: "file"; readonly file: FileId }

/** A link written in a page's markdown, and what it reaches in the revision. */
export interface Link {
  readonly status: LinkStatus
  readonly target: LinkTarget
  /** The page the link is written in. */
  readonly page: PageId
  /** Its place among the revision's links, for stable paging. */
  readonly index: number
}

const linkPattern = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g

/** Resolves `target` relative to the directory of a page at `from` ("a/b" lives in "a"). */
const resolvePath = (from: string, target: string): string => {
  const parts = target.startsWith("/") ? [] : from.split("/").slice(0, -1)
  for (const segment of target.replace(/^\/+/, "").split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") parts.pop()
    else parts.push(segment)
  }
  // GitBook's layout: a page with children is folder/README.md, a leaf is slug.md.
  const last = parts[parts.length - 1]?.toLowerCase()
  if (last === "readme.md" || last === "readme") parts.pop()
  else if (last?.endsWith(".md") === true) parts[parts.length - 1] = parts[parts.length - 1]!.slice(0, -3)
  return parts.join("/")
}

/**
 * Every link in the revision's pages with its status: `in-app` for a URL into the app itself,
 * `ok` for an external URL or a page or file present in the revision, `broken` otherwise.
 */
export const linksOf = (content: RevisionContent, appBase: string): ReadonlyArray<Link> => {
  const byPath = new Map<string, PageId>()
  for (const page of content.pages.values()) byPath.set(pathOf(content, page), page.id)
  const byFileName = new Map<string, FileId>()
  for (const file of content.files.values()) byFileName.set(file.name, file.id)
  const links: Array<Link> = []
  const pages = Array.from(content.pages.values()).sort((a, b) => (a.id < b.id ? -1 : 1))
  for (const page of pages) {
    const from = pathOf(content, page)
    for (const match of page.markdown.matchAll(linkPattern)) {
      const raw = match[1] ?? ""
      const index = links.length
      const target = (status: LinkStatus, reached: LinkTarget) => links.push({ status, target: reached, page: page.id, index })
      if (raw.startsWith(appBase)) target("in-app", { kind: "url", url: raw })
      else if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(raw)) target("ok", { kind: "url", url: raw })
      else if (raw.startsWith("#")) continue
      else {
        const plain = decodeURIComponent(raw.replace(/[#?].*$/, ""))
        const fileName = plain.split("/").pop() ?? ""
        const file = /\.gitbook\/assets\//.test(plain) || (!plain.endsWith(".md") && /\.[a-z0-9]+$/i.test(fileName))
          ? byFileName.get(fileName)
          : undefined
        const pageId = byPath.get(resolvePath(from, plain))
        if (file !== undefined) target("ok", { kind: "file", file })
        else if (pageId !== undefined) target("ok", { kind: "page", page: pageId })
        else target("broken", { kind: "url", url: raw })
      }
    }
  }
  return links
}
