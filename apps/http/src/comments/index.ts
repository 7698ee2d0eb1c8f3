import { OctavoBase } from "../shared/Contract.js"
import { CommentsApi } from "./CommentsApi.js"
import { CommentsLive } from "./CommentsHandlers.js"

/** Comments over HTTP: threads of comments and replies on change requests. */
export const CommentsGroups = OctavoBase.add(CommentsApi)
export const CommentsHandlers = CommentsLive
export { openCommentFields } from "./ForSpaces.js"
