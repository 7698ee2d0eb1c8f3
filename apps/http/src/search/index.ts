import { OctavoBase } from "../shared/Contract.js"
import { SearchApi } from "./SearchApi.js"
import { SearchLive } from "./SearchHandlers.js"
import { ReindexStaleSpaces } from "./Jobs.js"

/** Search over HTTP: in a space, and across an organization's spaces. */
export const SearchGroups = OctavoBase.add(SearchApi)
export const SearchHandlers = SearchLive

/** The search context's part of the HTTP API (the list in ../Contexts.ts). */
export const SearchHttp = {
  groups: SearchGroups,
  handlers: SearchHandlers,
  jobs: [ReindexStaleSpaces]
}
