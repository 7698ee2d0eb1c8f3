import type { ChangeRequest, ContentPage, File } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** A revision's pages and files as persistent maps: a revision shares what it did not change with its parent. */
export interface RevisionMaps {
  readonly pages: HashMap.HashMap<string, ContentPage>
  readonly files: HashMap.HashMap<string, File>
}

export const emptyRevision: RevisionMaps = { pages: HashMap.empty(), files: HashMap.empty() }

/** What the content context keeps in memory. */
export const ContentState = slice("@octavo/adapters-memory/content", {
  /** By revision id. */
  revisionContents: HashMap.empty<string, RevisionMaps>(),
  blobs: HashMap.empty<string, Uint8Array>(),
  changeRequests: HashMap.empty<string, ChangeRequest>()
})
