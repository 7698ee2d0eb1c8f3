import type { Comment, CommentReply, Reaction } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the comments context keeps in memory. */
export const CommentsState = slice("@octavo/adapters-memory/comments", {
  /** By comment id. */
  comments: HashMap.empty<string, Comment>(),
  /** By reply id. */
  replies: HashMap.empty<string, CommentReply>(),
  /** By (subject id, user id, emoji); `commentId` is the subject's thread. */
  reactions: HashMap.empty<string, Reaction & { readonly commentId: string }>(),
  /** Open top-level comments, by space id. */
  openCounts: HashMap.empty<string, number>()
})
