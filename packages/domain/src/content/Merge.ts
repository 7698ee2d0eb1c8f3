import { Effect } from "effect"
import type { PageId } from "../shared/Ids.js"
import { giveTurn } from "../shared/Turns.js"
import type { ContentDelta, ContentPage, RevisionContent } from "./Page.js"

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
        Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))
      )
      : v)

/** Whether two values of a page's field would be written the same (`canonical`): texts compared as they are. */
const sameField = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (a instanceof Date && b instanceof Date) return Object.is(a.getTime(), b.getTime())
  return typeof a === "object" && typeof b === "object" && a !== null && b !== null && canonical(a) === canonical(b)
}

/** Whether two versions of a page are the same, whatever the order of their fields (absent and undefined alike). */
export const samePage = (a: ContentPage | undefined, b: ContentPage | undefined): boolean => {
  if (a === b) return true
  if (a === undefined || b === undefined) return false
  const left: Readonly<Record<string, unknown>> = a
  const right: Readonly<Record<string, unknown>> = b
  let fields = 0
  for (const key of Object.keys(left)) {
    if (left[key] === undefined) continue
    if (!sameField(left[key], right[key])) return false
    fields++
  }
  for (const key of Object.keys(right)) if (right[key] !== undefined) fields--
  return fields === 0
}

/** The pages that differ between two revisions' contents (changed, added or removed); a turn given between pages. */
export const changedPages = (from: RevisionContent, to: RevisionContent): Effect.Effect<ReadonlySet<PageId>> =>
  Effect.gen(function*() {
    const changed = new Set<PageId>()
    for (const [id, page] of to.pages) {
      yield* giveTurn
      if (!samePage(from.pages.get(id), page)) changed.add(id)
    }
    for (const id of from.pages.keys()) if (!to.pages.has(id)) changed.add(id)
    return changed
  })

export type MergeOutcome =
  | { readonly _tag: "merged"; readonly content: RevisionContent; readonly delta: ContentDelta }
  | { readonly _tag: "conflicts"; readonly pages: ReadonlyArray<PageId> }

/**
 * Brings the changes made from `base` to `ours` onto `theirs` (a three-way merge by page).
 * A page changed on both sides, differently, is a conflict; so is a result whose tree breaks
 * (a page under a page the other side deleted, a loop of moves, two siblings with one slug). Files only grow.
 * Its work grows with the pages of the space: it gives the event loop turns between pages (Turns.ts).
 */
export const mergeContent = (
  base: RevisionContent,
  ours: RevisionContent,
  theirs: RevisionContent
): Effect.Effect<MergeOutcome> =>
  Effect.gen(function*() {
    const mine = yield* changedPages(base, ours)
    const others = yield* changedPages(base, theirs)
    const conflicts: Array<PageId> = []
    for (const id of mine) {
      yield* giveTurn
      if (others.has(id) && !samePage(ours.pages.get(id), theirs.pages.get(id))) conflicts.push(id)
    }
    if (conflicts.length > 0) return { _tag: "conflicts", pages: conflicts } satisfies MergeOutcome
    const pages = new Map(theirs.pages)
    const upserted: Array<ContentPage> = []
    const deleted: Array<PageId> = []
    for (const id of mine) {
      yield* giveTurn
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
      yield* giveTurn
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
    if (broken.length > 0) return { _tag: "conflicts", pages: broken } satisfies MergeOutcome
    const files = new Map(theirs.files)
    const newFiles = Array.from(ours.files.values()).filter((f) => !files.has(f.id))
    for (const file of newFiles) files.set(file.id, file)
    return {
      _tag: "merged",
      content: { pages, files },
      delta: { pages: upserted, deletedPages: deleted, files: newFiles, deletedFiles: [] }
    } satisfies MergeOutcome
  })
