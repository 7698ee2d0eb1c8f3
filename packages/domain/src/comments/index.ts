import { Comments } from "./CommentService.js"

export * from "./Comment.js"
export * from "./CommentService.js"
export * from "./Emoji.js"
export * from "./ForSpaces.js"
export * from "./Lists.js"
export * from "./Policy.js"
export * from "./Reads.js"
export * from "./Ports.js"

/** The comments context's use cases: threads on change requests. */
export const CommentsServices = Comments.Default
