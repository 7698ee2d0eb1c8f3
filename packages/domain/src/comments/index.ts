import { Layer } from "effect"
import { Comments } from "./CommentService.js"
import { CommentCounters, OpenCommentCounts } from "./ForSpaces.js"

export * from "./Comment.js"
export * from "./CommentService.js"
export * from "./Emoji.js"
export * from "./ForSpaces.js"
export * from "./Lists.js"
export * from "./Policy.js"
export * from "./Ports.js"

/** The comments context's use cases: threads on change requests. */
export const CommentsServices = Comments.Default

/** The ports of earlier contexts that comments answer: the space's counters (change requests included), a change request's open comments. */
export const CommentAnswers = Layer.mergeAll(CommentCounters, OpenCommentCounts)
