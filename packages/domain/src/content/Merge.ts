import type { PageId } from "../shared/Ids.js"
import type { ContentDelta, ContentPage, RevisionContent } from "./Page.js"

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
        Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))
      )
      : v)

/** Whether two versions of a page are the same, whatever the order of their fields. */
export const samePage = (a: ContentPage | undefined, b: ContentPage | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && canonical(a) === canonical(b))

/** The pages that differ between two revisions' contents (changed, added or removed). */
export const changedPages = (from: RevisionContent, to: RevisionContent): ReadonlySet<PageId> => {
  const changed = new Set<PageId>()
  for (const [id, page] of to.pages) if (!samePage(from.pages.get(id), page)) changed.add(id)
  for (const id of from.pages.keys()) if (!to.pages.has(id)) changed.add(id)
  return changed
}

export type MergeOutcome =
  | { readonly _tag: "merged"; readonly content: RevisionContent; readonly delta: ContentDelta }
  | { readonly _tag: "conflicts"; readonly pages: ReadonlyArray<PageId> }

/**
 * Brings the changes made from `base` to `ours` onto `theirs` (a three-way merge by page).
 * A page changed on both sides, differently, is a conflict; so is a result whose tree breaks
 * (a page under a page the other side deleted, a loop of moves, two siblings with one slug). Files only grow.
 */
export const mergeContent = (base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): MergeOutcome => {
  const mine = changedPages(base, ours)
  const others = changedPages(base, theirs)
  const conflicts = Array.from(mine).filter((id) => others.has(id) && !samePage(ours.pages.get(id), theirs.pages.get(id)))
  if (conflicts.length > 0) return { _tag: "conflicts", pages: conflicts }
  const pages = new Map(theirs.pages)
  const upserted: Array<ContentPage> = []
  const deleted: Array<PageId> = []
  for (const id of mine) {
    const page = ours.pages.get(id)
    if (page === undefined) {
      if (pages.delete(id)) deleted.push(id)
    } else if (!samePage(pages.get(id), page)) {
      pages.set(id, page)
      upserted.push(page)
    }
  }
  // The merged tree must hold together.
  const broken: Array<PageId> = []
  const slugs = new Set<string>()
  for (const page of pages.values()) {
    if (page.parentId !== null && !pages.has(page.parentId)) broken.push(page.id)
    // Two moves that are fine alone can make a loop together (each page moved under the other).
    const seen = new Set<PageId>([page.id])
    for (let up = page.parentId; up !== null; up = pages.get(up)?.parentId ?? null) {
      if (seen.has(up)) {
        broken.push(page.id)
        break
      }
      seen.add(up)
    }
    const key = `${page.parentId ?? ""}/${page.slug}`
    if (slugs.has(key)) broken.push(page.id)
    slugs.add(key)
  }
  if (broken.length > 0) return { _tag: "conflicts", pages: broken }
  const files = new Map(theirs.files)
  const newFiles = Array.from(ours.files.values()).filter((f) => !files.has(f.id))
  for (const file of newFiles) files.set(file.id, file)
  return {
    _tag: "merged",
    content: { pages, files },
    delta: { pages: upserted, deletedPages: deleted, files: newFiles, deletedFiles: [] }
  }
}
