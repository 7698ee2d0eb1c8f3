import { Layer } from "effect"
import { ChangeRequests } from "./ChangeRequestService.js"
import { Content } from "./ContentService.js"
import { ContentLifecycle } from "./ForSpaces.js"
import { RevisionContents } from "./RevisionContents.js"

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

/** The ports of the spaces context that content answers; its change request counters reach spaces through the comments context's. */
export const ContentAnswers = ContentLifecycle
