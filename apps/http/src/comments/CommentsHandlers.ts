import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { CommentReplies, commentListKey, Comments, replyListKey } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { CommentsApi } from "./CommentsApi.js"
import { commentPresenters } from "./Present.js"

export const CommentsLive = HttpApiBuilder.group(
  OctavoBase.add(CommentsApi),
  "comments",
  (handlers) =>
    Effect.gen(function*() {
      const comments = yield* Comments
      const replies = yield* CommentReplies
      const { presentComment, presentReply } = commentPresenters(yield* PublicUrl)
      return handlers
        .handle("list", ({ path, urlParams: { authors, format, order = "desc", status: asked, targetPage, ...page } }) => {
          // `all` is no filter.
          const status = asked === "all" ? undefined : asked
          return listOf(
            commentListKey(path.spaceId, path.changeRequestId, { status, page: targetPage, authors }, order),
            page,
            (request) => comments.list(path.spaceId, path.changeRequestId, { status, targetPage, authors, order }, request),
            presentComment(format)
          )
        })
        .handle(
          "post",
          ({ path, payload }) =>
            domain(comments.post(path.spaceId, path.changeRequestId, payload)).pipe(Effect.flatMap(createdAs(presentComment(undefined))))
        )
        .handle(
          "get",
          ({ path, urlParams }) =>
            domain(comments.get(path.spaceId, path.changeRequestId, path.commentId)).pipe(Effect.map(presentComment(urlParams.format)))
        )
        .handle(
          "update",
          ({ path, payload }) =>
            domain(comments.update(path.spaceId, path.changeRequestId, path.commentId, payload)).pipe(Effect.map(presentComment(undefined)))
        )
        .handle("remove", ({ path }) => domain(comments.remove(path.spaceId, path.changeRequestId, path.commentId)))
        .handle("listReplies", ({ path, urlParams }) =>
          listOf(
            replyListKey(path.spaceId, path.changeRequestId, path.commentId),
            urlParams,
            (page) => replies.listReplies(path.spaceId, path.changeRequestId, path.commentId, page),
            presentReply(urlParams.format)
          ))
        .handle(
          "reply",
          ({ path, payload, urlParams }) =>
            domain(replies.reply(path.spaceId, path.changeRequestId, path.commentId, payload)).pipe(
              Effect.flatMap(createdAs(presentReply(urlParams.format)))
            )
        )
        .handle("getReply", ({ path, urlParams }) =>
          domain(replies.getReply(path.spaceId, path.changeRequestId, path.commentId, path.commentReplyId)).pipe(
            Effect.map(presentReply(urlParams.format))
          ))
        .handle("updateReply", ({ path, payload }) =>
          domain(replies.updateReply(path.spaceId, path.changeRequestId, path.commentId, path.commentReplyId, payload)).pipe(
            Effect.map(presentReply(undefined))
          ))
        .handle(
          "removeReply",
          ({ path }) =>
            domain(replies.removeReply(path.spaceId, path.changeRequestId, path.commentId, path.commentReplyId))
        )
    })
)
