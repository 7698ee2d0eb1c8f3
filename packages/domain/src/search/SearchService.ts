import { Effect, Option, Schema } from "effect"
import type { OrganizationId, PageId, SpaceId } from "../shared/Ids.js"
import { boundedString, validate } from "../shared/Limits.js"
import { type Page, type PageRequest } from "../shared/Pagination.js"
import type { Space } from "../spaces/Space.js"
import { SpaceAccess } from "../spaces/SpaceAccess.js"
import { RevisionContentRepository } from "../content/Ports.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { makeIndexing } from "./Indexing.js"
import { type Ancestor, type PageHit, SearchIndex, type SearchTerm, type Section } from "./Ports.js"
import { countMatches, MAX_TERMS, scoreOf, scoreOfRank, termMatches } from "./Rank.js"
import { isStopWord, lexemesOf, wordsOf } from "./Text.js"
import { stem } from "./Stemmer.js"

/** A query of up to 512 characters; one with no word to look for (empty, say) finds nothing. */
export const SearchInput = Schema.Struct({ query: boundedString({ max: 512 }) })
export type SearchInput = typeof SearchInput.Type

/** Pages shown under each space of an organization search, best first. */
export const PAGES_PER_SPACE = 5
/** Sections shown under each page, in the page's order. */
export const SECTIONS_PER_PAGE = 5
/** Characters of a section's body shown in a result. */
export const SNIPPET_LENGTH = 300

/**
 * Characters of a page's sections read to pick the sections shown and cut their snippets: a
 * result costs the same for a page of a million characters as for one of a few thousand.
 */
const SCAN_LENGTH = 20_000

/** A prefix shorter than this would match nearly every page: a last word this short is left out. */
const MIN_PREFIX = 2

const commonPrefix = (a: string, b: string): string => {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return a.slice(0, i)
}

/**
 * The terms of a query: the stems of its words, stop words left out, at most MAX_TERMS. The last
 * word is still being typed unless the query ends with a space or punctuation: it matches words
 * it starts (by the part it shares with its stem, so "configura" finds "configuration").
 */
export const termsOf = (query: string): ReadonlyArray<SearchTerm> => {
  const words = wordsOf(query)
  const typing = /[\p{L}\p{N}]$/u.test(query)
  const terms: Array<SearchTerm> = []
  const seen = new Set<string>()
  const add = (term: SearchTerm) => {
    const key = `${term.prefix ? "*" : "="}${term.lexeme}`
    if (!seen.has(key) && terms.length < MAX_TERMS) {
      seen.add(key)
      terms.push(term)
    }
  }
  words.forEach((word, i) => {
    if (typing && i === words.length - 1) {
      const prefix = commonPrefix(word, stem(word))
      if (prefix.length >= MIN_PREFIX) add({ lexeme: prefix, prefix: true })
    } else if (!isStopWord(word)) {
      add({ lexeme: stem(word), prefix: false })
    }
  })
  return terms
}

/** A section in a result: its body cut to the part around the first word that matched. */
const snippet = (body: string, terms: ReadonlyArray<SearchTerm>): string => {
  let start = 0
  for (const match of body.slice(0, SCAN_LENGTH).matchAll(/[\p{L}\p{N}]+/gu)) {
    const lexemes = lexemesOf(match[0])
    if (terms.some((term) => termMatches(lexemes, term))) {
      start = match.index ?? 0
      break
    }
  }
  // Some words of context before the match, from a word boundary.
  let from = Math.max(0, start - 60)
  if (from > 0) from = body.indexOf(" ", from) + 1 || from
  const cut = body.slice(from, from + SNIPPET_LENGTH)
  return `${from > 0 ? "…" : ""}${cut}${from + SNIPPET_LENGTH < body.length ? "…" : ""}`
}

/** Whether a result matched on the page's own fields (title, description) or on a section's content. */
export type ResultType = "page" | "section"

/** A section shown in a result, with its score: how many of the terms it matches (0 for a page matched by its fields alone). */
export interface SectionResult extends Section {
  readonly score: number
  readonly resultType: ResultType
}

/** A page found, with the sections that match (the first one when only the page's fields did). */
export interface PageResult {
  readonly pageId: PageId
  readonly title: string
  readonly description: string
  readonly path: string
  readonly ancestors: ReadonlyArray<Ancestor>
  /** Higher for more terms matched, then more of them in the title (`scoreOf`). */
  readonly score: number
  /** Its place, from 1, among every page found, however the results are paged or grouped. */
  readonly rank: number
  readonly resultType: ResultType
  readonly sections: ReadonlyArray<SectionResult>
}

/** A space found, with its best pages; it scores as its best page. */
export interface SpaceResult {
  readonly space: Space
  readonly score: number
  readonly pages: ReadonlyArray<PageResult>
}

const resultOf = (hit: PageHit, terms: ReadonlyArray<SearchTerm>): PageResult => {
  const { document } = hit
  const matching: Array<SectionResult> = []
  let budget = SCAN_LENGTH
  for (const section of document.sections) {
    if (budget <= 0 || matching.length === SECTIONS_PER_PAGE) break
    const text = `${section.title} ${section.body.slice(0, budget)}`
    budget -= text.length
    const score = countMatches(lexemesOf(text), terms)
    if (score > 0) matching.push({ ...section, score, resultType: "section" })
  }
  const shown = matching.length > 0
    ? matching
    : document.sections.slice(0, 1).map((s): SectionResult => ({ ...s, score: 0, resultType: "page" }))
  return {
    pageId: document.pageId,
    title: document.title,
    description: document.description,
    path: document.path,
    ancestors: document.ancestors,
    score: scoreOf(hit.matched, hit.titleMatched),
    rank: hit.position,
    // A page whose title matched is found for itself, even when its sections match too.
    resultType: hit.titleMatched > 0 || matching.length === 0 ? "page" : "section",
    sections: shown.map((s) => ({ ...s, body: snippet(s.body, terms) }))
  }
}

const emptyPage: Page<never> = { items: [], count: 0, next: Option.none() }

/** Full-text search in the active revisions of the spaces a caller may read. */
export class Search extends Effect.Service<Search>()("@octavo/domain/Search", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const index = yield* SearchIndex
    const contents = yield* RevisionContentRepository
    const uow = yield* UnitOfWork
    const indexing = yield* makeIndexing

    /** Pages of one space, best first; `read` level on the space. */
    const inSpace = (spaceId: SpaceId, input: SearchInput, request: PageRequest) =>
      Effect.gen(function*() {
        const valid = yield* validate(SearchInput)(input)
        yield* guard.space(spaceId)
        const terms = termsOf(valid.query)
        if (terms.length === 0) return emptyPage as Page<PageResult>
        const hits = yield* index.pages([spaceId], terms, request)
        return { ...hits, items: hits.items.map((hit) => resultOf(hit, terms)) } satisfies Page<PageResult>
      })

    /**
     * Pages of the spaces a published site shows one visitor, best first. No member role is asked:
     * the reader, which admitted the visitor to the site, names the spaces.
     */
    const inPublishedSpaces = (spaceIds: ReadonlyArray<SpaceId>, input: SearchInput, request: PageRequest) =>
      Effect.gen(function*() {
        const valid = yield* validate(SearchInput)(input)
        const terms = termsOf(valid.query)
        if (terms.length === 0 || spaceIds.length === 0) return emptyPage as Page<PageResult & { readonly spaceId: SpaceId }>
        const hits = yield* index.pages(spaceIds, terms, request)
        return { ...hits, items: hits.items.map((hit) => ({ ...resultOf(hit, terms), spaceId: hit.document.spaceId })) }
      })

    /** Spaces of the organization the caller may read, best first, each with its best pages. */
    const inOrganization = (organizationId: OrganizationId, input: SearchInput, request: PageRequest) =>
      Effect.gen(function*() {
        const valid = yield* validate(SearchInput)(input)
        const readable = yield* guard.readableSpaces(organizationId, "search this organization")
        const terms = termsOf(valid.query)
        if (terms.length === 0 || readable.length === 0) return emptyPage as Page<SpaceResult>
        const byId = new Map(readable.map((space) => [space.id, space]))
        const hits = yield* index.spaces(readable.map((space) => space.id), terms, PAGES_PER_SPACE, request)
        // The index only answers for the spaces it was given: each hit is one of `readable`.
        const items = hits.items.map((hit): SpaceResult => ({
          space: byId.get(hit.spaceId) as Space,
          score: scoreOfRank(hit.rank),
          pages: hit.pages.map((page) => resultOf(page, terms))
        }))
        return { ...hits, items } satisfies Page<SpaceResult>
      })

    /**
     * Reindexes the spaces whose documents do not follow their active revision (content from
     * before search existed, or left behind); answers how many. Safe to run on several servers.
     */
    const reindexStale = Effect.gen(function*() {
      const done = new Set<SpaceId>()
      for (;;) {
        const stale = (yield* index.staleSpaces(50)).filter((id) => !done.has(id))
        // A space still stale after its turn is being edited right now: the edit indexes it.
        if (stale.length === 0) return done.size
        for (const spaceId of stale) {
          done.add(spaceId)
          yield* uow.transaction(Effect.gen(function*() {
            // Under the space's lock, so that an edit landing meanwhile waits and then follows on.
            const space = yield* guard.lock(spaceId)
            yield* indexing.whole(spaceId, space.revisionId, yield* contents.load(space.revisionId))
          })).pipe(
            // One space that cannot be indexed does not keep the others from it.
            Effect.catchAllCause((cause) =>
              Effect.logWarning("A space could not be reindexed for search", cause).pipe(Effect.annotateLogs({ spaceId }))
            )
          )
        }
      }
    })

    return { inSpace, inOrganization, inPublishedSpaces, reindexStale } as const
  })
}) {}
