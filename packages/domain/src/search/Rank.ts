import type { PageHit, SearchTerm } from "./Ports.js"

/** A query keeps its first 16 distinct terms; the rest are ignored. */
export const MAX_TERMS = 16

/**
 * A page's rank for a query, lower first: pages matching more of the terms come first, and
 * among those, pages matching more of them in their title.
 */
export const rankOf = (matched: number, titleMatched: number): number =>
  (MAX_TERMS - matched) * (MAX_TERMS + 1) + (MAX_TERMS - titleMatched)

/** The rank no hit reaches: that of a page matching no term. */
const WORST_RANK = rankOf(0, 0)

/**
 * A result's relevance score, higher first (GitBook's `score`): the mirror image of its rank, so
 * each term matched counts MAX_TERMS + 1 and each term matched in the title one more.
 */
export const scoreOfRank = (rank: number): number => WORST_RANK - rank

export const scoreOf = (matched: number, titleMatched: number): number => scoreOfRank(rankOf(matched, titleMatched))

/**
 * The sort key of a page hit: its rank as three digits, a space, then its path, so equally
 * ranked pages come in path order. Paths are ASCII (slugs), so byte and code-unit order agree.
 */
export const pageKeyOf = (hit: Pick<PageHit, "matched" | "titleMatched"> & { readonly document: { readonly path: string } }): string =>
  `${String(rankOf(hit.matched, hit.titleMatched)).padStart(3, "0")} ${hit.document.path}`

/** Whether a term matches one of these lexemes: equal, or a prefix of it for a prefix term. */
export const termMatches = (lexemes: ReadonlySet<string> | ReadonlyArray<string>, term: SearchTerm): boolean => {
  if (!term.prefix) return Array.isArray(lexemes) ? lexemes.includes(term.lexeme) : (lexemes as ReadonlySet<string>).has(term.lexeme)
  for (const lexeme of lexemes) if (lexeme.startsWith(term.lexeme)) return true
  return false
}

/** How many of the terms match these lexemes. */
export const countMatches = (lexemes: ReadonlySet<string> | ReadonlyArray<string>, terms: ReadonlyArray<SearchTerm>): number =>
  terms.reduce((n, term) => n + (termMatches(lexemes, term) ? 1 : 0), 0)
