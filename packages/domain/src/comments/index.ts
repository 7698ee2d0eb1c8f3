import { Layer } from "effect"
import { Comments } from "./CommentService.js"
import { CommentReplies } from "./ReplyService.js"

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
