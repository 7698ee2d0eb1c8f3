import { Schema } from "effect"
import { ListOf } from "../shared/Common.js"

// The wire shapes of search results.

const Urls = Schema.Struct({ app: Schema.String })

const SectionResult = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  path: Schema.String,
  body: Schema.String,
  urls: Urls
}).annotations({ identifier: "SearchSectionResult" })

export const PageResult = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  path: Schema.String,
  sections: Schema.Array(SectionResult),
  urls: Urls
}).annotations({ identifier: "SearchPageResult" })

export const SpaceResult = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  pages: Schema.Array(PageResult),
  urls: Urls
}).annotations({ identifier: "SearchSpaceResult" })

/** The answers of space and organization search. */
export const PageResults = ListOf(PageResult)
export const SpaceResults = ListOf(SpaceResult)
