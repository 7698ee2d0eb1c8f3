import { OctavoBase } from "../shared/Contract.js"
import { CommentsApi } from "./CommentsApi.js"
import { CommentsLive } from "./CommentsHandlers.js"
import { openCommentFields } from "./ForSpaces.js"

/** Comments over HTTP: threads of comments and replies on change requests. */
export const CommentsGroups = OctavoBase.add(CommentsApi)
export const CommentsHandlers = CommentsLive

/** The comments context's part of the HTTP API (the list in ../Contexts.ts). */
export const CommentsHttp = {
  groups: CommentsGroups,
  handlers: CommentsHandlers,
  spaceFields: [openCommentFields]
}
