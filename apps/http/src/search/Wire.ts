import { Schema } from "effect"
import { ListOf } from "../shared/Common.js"

// The wire shapes of search results (GitBook's SearchSpaceResult, SearchPageResult, SearchSectionResult).

const Urls = Schema.Struct({ app: Schema.String })

/** Relevance, higher first and unbounded. */
const Score = Schema.Number
const ResultType = Schema.Literal("page", "section")

const SectionResult = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  path: Schema.String,
  score: Score,
  resultType: ResultType,
  body: Schema.String,
  urls: Urls
}).annotations({ identifier: "SearchSectionResult" })

export const PageResult = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  description: Schema.String,
  path: Schema.String,
  score: Score,
  /** The page's place, from 1, among all the pages found, however they are paged or grouped. */
  rank: Schema.Number,
  resultType: ResultType,
  sections: Schema.Array(SectionResult),
  /** The pages above it, from the top one down to its parent. */
  ancestors: Schema.Array(Schema.Struct({ id: Schema.String, title: Schema.String })),
  urls: Urls
}).annotations({ identifier: "SearchPageResult" })

export const SpaceResult = Schema.Struct({
  type: Schema.Literal("space"),
  id: Schema.String,
  title: Schema.String,
  score: Score,
  pages: Schema.Array(PageResult),
  urls: Urls
}).annotations({ identifier: "SearchSpaceResult" })

/** The answers of space and organization search. */
export const PageResults = ListOf(PageResult)
export const SpaceResults = ListOf(SpaceResult)
