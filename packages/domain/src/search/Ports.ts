import { Context, type Effect, type Option } from "effect"
import type { PageId, RevisionId, SpaceId } from "../shared/Ids.js"
import type { Page, PageRequest } from "../shared/Pagination.js"

/** A part of a page: a heading with the body under it, or the text before the first heading. */
export interface Section {
  /** The heading's anchor; the page id for the text before the first heading. */
  readonly id: string
  readonly title: string
  /** The heading's anchor, empty for the text before the first heading. */
  readonly anchor: string
  /** Plain text, markup removed. */
  readonly body: string
}

/** A page above a page found. */
export interface Ancestor {
  readonly id: PageId
  readonly title: string
}

/** What the search index keeps of one page of a space's active revision. */
export interface SearchDocument {
  readonly spaceId: SpaceId
  readonly pageId: PageId
  readonly title: string
  /** The page's description, empty when it has none. */
  readonly description: string
  /** The page's path in the revision. */
  readonly path: string
  /** The pages above it in the revision, from the top one down to its parent. */
  readonly ancestors: ReadonlyArray<Ancestor>
  readonly sections: ReadonlyArray<Section>
  /** Distinct lexemes of the title (see `lexemesOf`). */
  readonly titleLexemes: ReadonlyArray<string>
  /** Distinct lexemes of the title and every section. */
  readonly lexemes: ReadonlyArray<string>
}

/**
 * One word of a query, as a lexeme (lower-case letters and digits only, `^[\p{L}\p{N}]+$`).
 * It matches a document lexeme equal to it or, when `prefix`, starting with it.
 */
export interface SearchTerm {
  readonly lexeme: string
  readonly prefix: boolean
}

/** A page that matches at least one term. */
export interface PageHit {
  readonly document: SearchDocument
  /** How many of the terms match one of the document's `lexemes`. */
  readonly matched: number
  /** How many of the terms match one of its `titleLexemes`. */
  readonly titleMatched: number
  /** Its place, from 1, among all the pages that match in the spaces searched, in the order of `pages`. */
  readonly position: number
}

/** A space with at least one matching page: the best `rankOf` among them, and its best pages. */
export interface SpaceHit {
  readonly spaceId: SpaceId
  readonly rank: number
  /** Its first `perSpace` matching pages, in the order of `pages`. */
  readonly pages: ReadonlyArray<PageHit>
}

/**
 * Full-text search over the active revisions of spaces. The domain keeps it in step with each
 * space's active revision, inside the same unit of work; the index only stores and matches.
 *
 * Order (both adapters must agree exactly, see `Search.ts`):
 * - `pages`: keyset `[pageKeyOf(hit), pageId]` ascending, so more terms matched first, then
 *   more terms in the title, then by path.
 * - `spaces`: keyset `[rank, spaceId]` ascending.
 * `count` is the number of pages (spaces) with at least one term matched. A hit's `position` is
 * its place in `pages` over all the spaces given, whichever of the two answers it.
 */
export class SearchIndex extends Context.Tag("@octavo/domain/SearchIndex")<SearchIndex, {
  /** Replaces the documents of these pages of the space (same space id) and removes the documents of `removed`. */
  readonly update: (spaceId: SpaceId, documents: ReadonlyArray<SearchDocument>, removed: ReadonlyArray<PageId>) => Effect.Effect<void>
  /** The revision of the space its documents follow; none when it was never indexed. */
  readonly indexedRevision: (spaceId: SpaceId) => Effect.Effect<Option.Option<RevisionId>>
  /** Records that the space's documents now follow this revision of it. */
  readonly markIndexed: (spaceId: SpaceId, revisionId: RevisionId) => Effect.Effect<void>
  /**
   * Up to `limit` spaces (not soft-deleted) whose active revision is not the one their documents
   * follow: never indexed (content from before search existed), or left behind.
   */
  readonly staleSpaces: (limit: number) => Effect.Effect<ReadonlyArray<SpaceId>>
  /** Forgets every document of the space, and which revision they followed. */
  readonly removeSpace: (spaceId: SpaceId) => Effect.Effect<void>
  /** Matching pages of these spaces; `terms` holds 1 to MAX_TERMS terms. */
  readonly pages: (spaceIds: ReadonlyArray<SpaceId>, terms: ReadonlyArray<SearchTerm>, page: PageRequest) => Effect.Effect<Page<PageHit>>
  /** Spaces among these with a matching page, each with its best `perSpace` pages. */
  readonly spaces: (
    spaceIds: ReadonlyArray<SpaceId>,
    terms: ReadonlyArray<SearchTerm>,
    perSpace: number,
    page: PageRequest
  ) => Effect.Effect<Page<SpaceHit>>
}>() {}

/** The storage the search context owns. */
export type SearchPorts = SearchIndex
