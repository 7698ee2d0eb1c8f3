import { Effect } from "effect"
import { pathOf } from "../content/Changes.js"
import type { ContentDelta, ContentPage, RevisionContent } from "../content/Page.js"
import type { PageId, RevisionId, SpaceId } from "../shared/Ids.js"
import { type SearchDocument, SearchIndex } from "./Ports.js"
import { lexemesOf, sectionsOf } from "./Text.js"

/** What the index keeps of a page at `path`. */
export const documentOf = (spaceId: SpaceId, page: ContentPage, path: string): SearchDocument => {
  const sections = sectionsOf(page)
  const titleLexemes = lexemesOf(page.title)
  const lexemes = new Set(titleLexemes)
  for (const word of lexemesOf(page.description ?? "")) lexemes.add(word)
  for (const section of sections) {
    for (const word of lexemesOf(`${section.title} ${section.body}`)) lexemes.add(word)
  }
  return { spaceId, pageId: page.id, title: page.title, path, sections, titleLexemes: [...titleLexemes], lexemes: [...lexemes] }
}

/**
 * The documents a new revision changes: pages the delta touched, and every page under one whose
 * slug or parent changed (their paths changed with it); and the pages it removed.
 */
export const documentsChanged = (
  spaceId: SpaceId,
  before: RevisionContent,
  after: RevisionContent,
  delta: ContentDelta
): { readonly documents: ReadonlyArray<SearchDocument>; readonly removed: ReadonlyArray<PageId> } => {
  const touched = new Set<PageId>()
  const moved = new Set<PageId>()
  for (const page of delta.pages) {
    touched.add(page.id)
    const previous = before.pages.get(page.id)
    if (previous !== undefined && (previous.slug !== page.slug || previous.parentId !== page.parentId)) moved.add(page.id)
  }
  if (moved.size > 0) {
    for (const page of after.pages.values()) {
      for (let parent = page.parentId; parent !== null; parent = after.pages.get(parent)?.parentId ?? null) {
        if (moved.has(parent)) {
          touched.add(page.id)
          break
        }
      }
    }
  }
  const documents: Array<SearchDocument> = []
  for (const id of touched) {
    const page = after.pages.get(id)
    if (page !== undefined) documents.push(documentOf(spaceId, page, pathOf(after, page)))
  }
  return { documents, removed: delta.deletedPages.filter((id) => !after.pages.has(id)) }
}

/** Keeps the search index in step with spaces' active revisions; call inside the unit of work that changes them. */
export const makeIndexing = Effect.gen(function*() {
  const index = yield* SearchIndex
  return {
    /** The space's active revision became `revisionId`, going from `before` to `after` through `delta`. */
    changed: (spaceId: SpaceId, revisionId: RevisionId, before: RevisionContent, after: RevisionContent, delta: ContentDelta) => {
      const { documents, removed } = documentsChanged(spaceId, before, after, delta)
      return Effect.zipRight(
        documents.length === 0 && removed.length === 0 ? Effect.void : index.update(spaceId, documents, removed),
        index.markIndexed(spaceId, revisionId)
      )
    },
    /** Indexes all of a space's active revision `revisionId` anew (a duplicate, a space left behind). */
    whole: (spaceId: SpaceId, revisionId: RevisionId, content: RevisionContent) =>
      Effect.all([
        index.removeSpace(spaceId),
        content.pages.size === 0
          ? Effect.void
          : index.update(spaceId, Array.from(content.pages.values(), (page) => documentOf(spaceId, page, pathOf(content, page))), []),
        index.markIndexed(spaceId, revisionId)
      ], { discard: true }),
    remove: (spaceId: SpaceId) => index.removeSpace(spaceId)
  }
})
