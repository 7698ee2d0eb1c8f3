import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { SearchInput } from "@octavo/domain"
import { Schema } from "effect"
import { OrganizationPath } from "../organizations/OrganizationsApi.js"
import { PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { SpacePath } from "../spaces/SpacesApi.js"
import { PageResults, SpaceResults } from "./Wire.js"

export { PageResults, SpaceResults } from "./Wire.js"

const SearchQuery = Schema.Struct({ ...SearchInput.fields, ...PageQuery })

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.get("space", "/v1/spaces/:spaceId/search").setPath(SpacePath).setUrlParams(SearchQuery).addSuccess(PageResults).pipe(
      errors(400, 404)
    )
  )
  .add(
    HttpApiEndpoint.get("organization", "/v1/orgs/:organizationId/search")
      .setPath(OrganizationPath)
      .setUrlParams(SearchQuery)
      .addSuccess(SpaceResults)
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
