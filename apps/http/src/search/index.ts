import { OctavoBase } from "../shared/Contract.js"
import { SearchApi } from "./SearchApi.js"
import { SearchLive } from "./SearchHandlers.js"

/** Search over HTTP: in a space, and across an organization's spaces. */
export const SearchGroups = OctavoBase.add(SearchApi)
export const SearchHandlers = SearchLive
