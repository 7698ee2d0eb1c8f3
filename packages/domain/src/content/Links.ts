import { linksOf as linksIn } from "@octavo/markdown"
import type { BoundedCache } from "../shared/BoundedCache.js"
import type { FileId, PageId } from "../shared/Ids.js"
import type { ContentPage, RevisionContent } from "./Page.js"
import { pathIndex, resolveLink } from "./Resolve.js"

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

/** Reads `/pages/<id>` and `/files/<id>` without a lookup: what a stored link names, present or not. */
const named = (url: string): LinkTarget | undefined => {
  const page = /^\/pages\/([^/#?]+)(?:[#?].*)?$/.exec(url)
  if (page !== null) return { kind: "page", page: page[1] as PageId }
  const file = /^\/files\/([^/#?]+)$/.exec(url)
  if (file !== null) return { kind: "file", file: file[1] as FileId }
  return undefined
}

/** The link targets written in a page, read once per page version while `known` keeps it. */
const urlsOf = (page: ContentPage, known: BoundedCache<string, ReadonlyArray<string>>): ReadonlyArray<string> =>
  known.getOrCompute(`${page.id}:${page.updatedAt.getTime()}:${page.markdown.length}`, () => linksIn(page.markdown).map((link) => link.url))

/**
 * Every link in the revision's pages with its status: `in-app` for a URL into the app itself,
 * `ok` for an external URL or a page or file present in the revision, `broken` otherwise (a page
 * deleted since the link was written, or a path that leads nowhere). `known` keeps the link targets of
 * the page versions read lately (`PageLinkTargets`).
 */
export const linksOf = (
  content: RevisionContent,
  appBase: string,
  known: BoundedCache<string, ReadonlyArray<string>>
): ReadonlyArray<Link> => {
  const paths = pathIndex(content)
  const links: Array<Link> = []
  const pages = Array.from(content.pages.values()).sort((a, b) => (a.id < b.id ? -1 : 1))
  for (const page of pages) {
    if (page.markdown === "") continue
    for (const url of urlsOf(page, known)) {
      const index = links.length
      const add = (status: LinkStatus, target: LinkTarget) => links.push({ status, target, page: page.id, index })
      if (url.startsWith(appBase)) {
        add("in-app", { kind: "url", url })
        continue
      }
      const reached = resolveLink(content, paths, page.id, url)
      if (reached.kind === "page") add("ok", { kind: "page", page: reached.page })
      else if (reached.kind === "file") add("ok", { kind: "file", file: reached.file })
      else if (reached.kind === "external") {
        if (!url.trim().startsWith("#")) add("ok", { kind: "url", url })
      } else add("broken", named(url) ?? { kind: "url", url })
    }
  }
  return links
}
