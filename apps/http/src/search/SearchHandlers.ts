import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { organizationSearchListKey, Search, spaceSearchListKey } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { listOf, PublicUrl } from "../shared/Handlers.js"
import { searchPresenters } from "./Present.js"
import { SearchApi } from "./SearchApi.js"

export const SearchLive = HttpApiBuilder.group(OctavoBase.add(SearchApi), "search", (handlers) =>
  Effect.gen(function*() {
    const search = yield* Search
    const { presentPage, presentSpace } = searchPresenters(yield* PublicUrl)
    return handlers
      .handle("space", ({ path, urlParams }) =>
        listOf(spaceSearchListKey(path.spaceId, urlParams.query), urlParams, (page) =>
          search.inSpace(path.spaceId, urlParams, page), presentPage(path.spaceId)))
      .handle("organization", ({ path, urlParams }) =>
        listOf(organizationSearchListKey(path.organizationId, urlParams.query), urlParams, (page) =>
          search.inOrganization(path.organizationId, urlParams, page), presentSpace))
  }))
