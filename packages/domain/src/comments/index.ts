import { Layer } from "effect"
import { Comments } from "./CommentService.js"
import { CommentReplies } from "./ReplyService.js"
import { SpaceChangeRequestReadsOneByOne } from "../content/Reads.js"
import { OpenCommentsFact } from "./ForSpaces.js"
import { ChangeRequestViewFactsOneByOne, CommentViewFactsOneByOne, SpaceCommentReadsOneByOne } from "./Reads.js"

export * from "./Comment.js"
export * from "./CommentService.js"
export * from "./Emoji.js"
export * from "./ForSpaces.js"
export * from "./Lists.js"
export * from "./Policy.js"
export * from "./Reads.js"
export * from "./Ports.js"
export * from "./ReplyService.js"

/** The comments context's use cases: threads on change requests, and their replies. */
export const CommentsServices = Layer.mergeAll(Comments.Default, CommentReplies.Default)

/** The comments context's part of the domain (the list in ../Contexts.ts). */
export const CommentsContext = {
  services: CommentsServices,
  spaceFacts: [OpenCommentsFact],
  readsOneByOne: Layer.mergeAll(
    SpaceCommentReadsOneByOne.pipe(Layer.provide(SpaceChangeRequestReadsOneByOne)),
    ChangeRequestViewFactsOneByOne,
    CommentViewFactsOneByOne
  )
}
