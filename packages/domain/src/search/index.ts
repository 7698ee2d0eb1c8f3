import { SearchIndexer } from "./Indexing.js"
import { Search } from "./SearchService.js"

export * from "./Indexing.js"
export * from "./Lists.js"
export * from "./Ports.js"
export * from "./Rank.js"
export * from "./SearchService.js"
export * from "./Stemmer.js"
export * from "./Text.js"

/** The search context's use cases. */
export const SearchServices = Search.Default

/** The content context's `ContentIndexer`, answered by the search index. */
export const SearchAnswers = SearchIndexer

/** The search context's part of the domain (the list in ../Contexts.ts). */
export const SearchContext = { services: SearchServices, answers: SearchAnswers }
