import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { OrganizationId, SearchInput, SpaceId } from "@octavo/domain"
import { Schema } from "effect"
import { Authentication } from "./Security.js"
import { ListOf, PageQuery } from "./Common.js"

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

const SearchQuery = Schema.Struct({ ...SearchInput.fields, ...PageQuery })

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.get("space", "/v1/spaces/:spaceId/search")
      .setPath(Schema.Struct({ spaceId: SpaceId }))
      .setUrlParams(SearchQuery)
      .addSuccess(PageResults)
  )
  .add(
    HttpApiEndpoint.get("organization", "/v1/orgs/:organizationId/search")
      .setPath(Schema.Struct({ organizationId: OrganizationId }))
      .setUrlParams(SearchQuery)
      .addSuccess(SpaceResults)
  )
  .middleware(Authentication)
{}
