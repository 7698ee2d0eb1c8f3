import { Layer } from "effect"
import { ChangeRequests } from "./ChangeRequestService.js"
import { Content } from "./ContentService.js"
import { RevisionContents } from "./RevisionContents.js"
import { ChangeRequestCountsFact } from "./ForSpaces.js"
import { SpaceChangeRequestReadsOneByOne } from "./Reads.js"

export * from "./Caches.js"
export * from "./ChangeRequest.js"
export * from "./ChangeRequestService.js"
export * from "./Changes.js"
export * from "./ContentService.js"
export * from "./Document.js"
export * from "./ForSpaces.js"
export * from "./Links.js"
export * from "./Lists.js"
export * from "./Markdown.js"
export * from "./Merge.js"
export * from "./Page.js"
export * from "./Ports.js"
export * from "./Reads.js"
export * from "./RevisionContents.js"
export * from "./Revisions.js"

/** The content context's use cases: revisions, pages and files, live edits, change requests. Needs `ContentIndexer`. */
export const ContentServices = ChangeRequests.Default.pipe(
  Layer.provideMerge(Content.Default),
  Layer.provideMerge(RevisionContents.Default)
)

/** The content context's part of the domain (the list in ../Contexts.ts). */
export const ContentContext = {
  services: ContentServices,
  spaceFacts: [ChangeRequestCountsFact],
  readsOneByOne: SpaceChangeRequestReadsOneByOne
}
