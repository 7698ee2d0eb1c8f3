import { Layer } from "effect"
import { ChangeRequestContent } from "./ChangeRequestContentService.js"
import { ChangeRequestMerges } from "./ChangeRequestMergeService.js"
import { ChangeRequests } from "./ChangeRequestService.js"
import { ContentFiles } from "./ContentFileService.js"
import { Content } from "./ContentService.js"
import { LiveEdits } from "./LiveEditService.js"
import { RevisionContents } from "./RevisionContents.js"
import { ChangeRequestCountsFact } from "./ForSpaces.js"
import { SpaceChangeRequestReadsOneByOne } from "./Reads.js"

export * from "./Caches.js"
export * from "./ChangeRequest.js"
export * from "./ChangeRequestContentService.js"
export * from "./ChangeRequestMergeService.js"
export * from "./ChangeRequestService.js"
export * from "./Changes.js"
export * from "./ContentFileService.js"
export * from "./ContentService.js"
export type { EditedView, RevisionView } from "./ContentWork.js"
export * from "./Document.js"
export * from "./ForSpaces.js"
export * from "./Links.js"
export * from "./LiveEditService.js"
export * from "./Lists.js"
export * from "./Markdown.js"
export * from "./Merge.js"
export * from "./Page.js"
export * from "./Ports.js"
export * from "./Reads.js"
export * from "./RevisionContents.js"
export * from "./Revisions.js"

/**
 * The content context's use cases, one service per group of operations: a space's revisions and pages, its
 * files, live edits; change requests, their content, their merges. All over the revision contents kept in
 * memory. Needs `ContentIndexer`.
 */
export const ContentServices = Layer.mergeAll(
  Content.Default,
  ContentFiles.Default,
  LiveEdits.Default,
  ChangeRequests.Default,
  ChangeRequestContent.Default,
  ChangeRequestMerges.Default
).pipe(Layer.provideMerge(RevisionContents.Default))

/** The content context's part of the domain (the list in ../Contexts.ts). */
export const ContentContext = {
  services: ContentServices,
  spaceFacts: [ChangeRequestCountsFact],
  readsOneByOne: SpaceChangeRequestReadsOneByOne
}
