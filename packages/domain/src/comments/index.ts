import { Comments } from "./CommentService.js"
import { OpenCommentCounts } from "./ForSpaces.js"

export * from "./Comment.js"
export * from "./CommentService.js"
export * from "./Emoji.js"
export * from "./ForSpaces.js"
export * from "./Lists.js"
export * from "./Policy.js"
export * from "./Ports.js"

/** The comments context's use cases: threads on change requests. */
export const CommentsServices = Comments.Default

/** The port of an earlier context that comments answer: a change request's open comments. */
export const CommentAnswers = OpenCommentCounts
