import type { RevisionId, SearchDocument } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the search context keeps in memory. */
export const SearchState = slice("@octavo/adapters-memory/search", {
  /** Search documents by space id, then page id. */
  documents: HashMap.empty<string, HashMap.HashMap<string, SearchDocument>>(),
  /** The revision each space's search documents follow, by space id. */
  revisions: HashMap.empty<string, RevisionId>()
})
