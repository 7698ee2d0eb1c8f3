import type { Section as MarkdownSection } from "@octavo/markdown"
import { Effect, Layer, Option } from "effect"
import { pathOf } from "../content/Changes.js"
import type { ContentDelta, ContentPage, RevisionContent } from "../content/Page.js"
import { ContentIndexer } from "../content/Ports.js"
import { HeavyWork, type HeavyWorkRunner, sectionsTask } from "../shared/HeavyWork.js"
import type { PageId, RevisionId, SpaceId } from "../shared/Ids.js"
import { type Ancestor, type SearchDocument, SearchIndex } from "./Ports.js"
import { lexemesOf, sectionsOf } from "./Text.js"

/**
 * How many bytes (UTF-8) of distinct lexemes a page may bring to the index; words met after that
 * are not indexed. PostgreSQL refuses a tsvector past 1 MB, and a page of a million characters of
 * distinct long words would reach it; every storage keeps the same words.
 */
export const MAX_LEXEME_BYTES = 512 * 1024

const utf8 = new TextEncoder()

/** The pages above `page` in the revision, from the top one down to its parent. */
export const ancestorsOf = (content: RevisionContent, page: ContentPage): ReadonlyArray<Ancestor> => {
  const above: Array<Ancestor> = []
  const seen = new Set<PageId>([page.id])
  for (let id = page.parentId; id !== null && !seen.has(id); id = content.pages.get(id)?.parentId ?? null) {
    seen.add(id)
    const parent = content.pages.get(id)
    if (parent === undefined) break
    above.unshift({ id: parent.id, title: parent.title })
  }
  return above
}

/** What the index keeps of a page at `path`, under `ancestors`; `parts` are its markdown's sections when already read. */
export const documentOf = (
  spaceId: SpaceId,
  page: ContentPage,
  path: string,
  ancestors: ReadonlyArray<Ancestor> = [],
  parts?: ReadonlyArray<MarkdownSection>
): SearchDocument => {
  const sections = sectionsOf(page, parts)
  const titleLexemes = lexemesOf(page.title)
  const lexemes = new Set<string>()
  let bytes = 0
  const add = (words: Iterable<string>) => {
    for (const word of words) {
      if (lexemes.has(word)) continue
      const size = utf8.encode(word).length
      if (bytes + size > MAX_LEXEME_BYTES) return
      bytes += size
      lexemes.add(word)
    }
  }
  // A title is at most 255 characters: its lexemes always fit, and come first.
  add(titleLexemes)
  add(lexemesOf(page.description ?? ""))
  for (const section of sections) add(lexemesOf(`${section.title} ${section.body}`))
  return {
    spaceId,
    pageId: page.id,
    title: page.title,
    description: page.description ?? "",
    path,
    ancestors,
    sections,
    titleLexemes: [...titleLexemes],
    lexemes: [...lexemes]
  }
}

/**
 * The document of a page of a revision, with its path and ancestors there; its markdown read by `work`. A page whose
 * markdown cannot be read there (not within the time given) is found by its title and description only.
 */
const documentIn = (work: HeavyWorkRunner, spaceId: SpaceId, content: RevisionContent, page: ContentPage) =>
  work.run(sectionsTask, page.markdown).pipe(
    Effect.catchTag("Unreadable", ({ rule }) =>
      Effect.as(
        Effect.logWarning("A page is indexed without its text").pipe(Effect.annotateLogs({ spaceId, pageId: page.id, rule })),
        []
      )),
    Effect.map((parts) => documentOf(spaceId, page, pathOf(content, page), ancestorsOf(content, page), parts))
  )

/**
 * The documents a new revision changes: pages the delta touched, and every page under one whose
 * slug, title or parent changed (their paths or ancestors changed with it); and the pages it removed.
 */
export const documentsChanged = (
  work: HeavyWorkRunner,
  spaceId: SpaceId,
  before: RevisionContent,
  after: RevisionContent,
  delta: ContentDelta
): Effect.Effect<{ readonly documents: ReadonlyArray<SearchDocument>; readonly removed: ReadonlyArray<PageId> }> => {
  const touched = new Set<PageId>()
  const reachBelow = new Set<PageId>()
  for (const page of delta.pages) {
    touched.add(page.id)
    const previous = before.pages.get(page.id)
    if (
      previous !== undefined &&
      (previous.slug !== page.slug || previous.title !== page.title || previous.parentId !== page.parentId)
    ) reachBelow.add(page.id)
  }
  if (reachBelow.size > 0) {
    for (const page of after.pages.values()) {
      for (let parent = page.parentId; parent !== null; parent = after.pages.get(parent)?.parentId ?? null) {
        if (reachBelow.has(parent)) {
          touched.add(page.id)
          break
        }
      }
    }
  }
  const pages = Array.from(touched).flatMap((id) => {
    const page = after.pages.get(id)
    return page === undefined ? [] : [page]
  })
  return Effect.map(Effect.forEach(pages, (page) => documentIn(work, spaceId, after, page)), (documents) => ({
    documents,
    removed: delta.deletedPages.filter((id) => !after.pages.has(id))
  }))
}

/** Keeps the search index in step with spaces' active revisions; call inside the unit of work that changes them. */
export const makeIndexing = Effect.gen(function*() {
  const index = yield* SearchIndex
  const work = yield* HeavyWork

  /** Indexes all of a space's active revision `revisionId` anew (a duplicate, a space left behind). */
  const whole = (spaceId: SpaceId, revisionId: RevisionId, content: RevisionContent) =>
    Effect.all([
      index.removeSpace(spaceId),
      content.pages.size === 0
        ? Effect.void
        : Effect.flatMap(
          Effect.forEach(content.pages.values(), (page) => documentIn(work, spaceId, content, page)),
          (documents) => index.update(spaceId, documents, [])
        ),
      index.markIndexed(spaceId, revisionId)
    ], { discard: true })

  /**
   * The space's active revision went from `from` to `to`, its content from `before` to `after`
   * through `delta`. Only the pages changed are indexed again when the documents followed `from`;
   * otherwise (never indexed yet, or left behind) the whole space is. Runs under the space's lock.
   */
  const changed = (
    spaceId: SpaceId,
    from: RevisionId,
    to: RevisionId,
    before: RevisionContent,
    after: RevisionContent,
    delta: ContentDelta
  ) =>
    Effect.flatMap(index.indexedRevision(spaceId), (indexed) => {
      if (Option.getOrUndefined(indexed) !== from) return whole(spaceId, to, after)
      return Effect.flatMap(documentsChanged(work, spaceId, before, after, delta), ({ documents, removed }) =>
        Effect.zipRight(
          documents.length === 0 && removed.length === 0 ? Effect.void : index.update(spaceId, documents, removed),
          index.markIndexed(spaceId, to)
        ))
    })

  return { changed, whole, remove: (spaceId: SpaceId) => index.removeSpace(spaceId) }
})

/** The content context's indexer, answered by the search index. */
export const SearchIndexer = Layer.effect(ContentIndexer, Effect.map(makeIndexing, (indexing) => ContentIndexer.of(indexing)))
