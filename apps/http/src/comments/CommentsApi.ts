import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { PostCommentInput, PostReplyInput, StoredString, UpdateCommentInput, UpdateReplyInput } from "@octavo/domain"
import { Schema } from "effect"
import { ChangeRequestPath } from "../content/ChangeRequestsApi.js"
import { Created, ListOf, Order, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { CommentObject, CommentReplyObject } from "./Wire.js"

// Change request comments (conventions-2.md §3): GitBook's paths, with 201 and `Location` on creation.

const CommentPath = Schema.Struct({ ...ChangeRequestPath.fields, commentId: StoredString })
const ReplyPath = Schema.Struct({ ...CommentPath.fields, commentReplyId: StoredString })

/** A body as markdown (the default) or as a document tree; anything else is 400. */
const FormatQuery = { format: Schema.optional(Schema.Literal("markdown", "document")) }

/** A query parameter that may repeat (`authors=a&authors=b`, as GitBook's client sends a list): read as a list. */
const Repeated = Schema.transform(Schema.Union(StoredString, Schema.Array(StoredString)), Schema.Array(Schema.String), {
  strict: true,
  decode: (value) => (typeof value === "string" ? [value] : value),
  encode: (values) => values
})

/** GitBook's list filters. */
const CommentListQuery = Schema.Struct({
  ...PageQuery,
  ...FormatQuery,
  order: Schema.optional(Order),
  status: Schema.optional(Schema.Literal("all", "open", "resolved")),
  targetPage: Schema.optional(StoredString),
  authors: Schema.optional(Repeated)
})

const comments = "/v1/spaces/:spaceId/change-requests/:changeRequestId/comments"

export class CommentsApi extends HttpApiGroup.make("comments")
  .add(
    HttpApiEndpoint.get("list", comments)
      .setPath(ChangeRequestPath)
      .setUrlParams(CommentListQuery)
      .addSuccess(ListOf(CommentObject))
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.post("post", comments)
      .setPath(ChangeRequestPath)
      .setPayload(PostCommentInput)
      .addSuccess(CommentObject, Created)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("get", `${comments}/:commentId`)
      .setPath(CommentPath)
      .setUrlParams(Schema.Struct(FormatQuery))
      .addSuccess(CommentObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.put("update", `${comments}/:commentId`)
      .setPath(CommentPath)
      .setPayload(UpdateCommentInput)
      .addSuccess(CommentObject)
      .pipe(errors(400, 403, 404))
  )
  .add(HttpApiEndpoint.del("remove", `${comments}/:commentId`).setPath(CommentPath).pipe(errors(400, 403, 404)))
  .add(
    HttpApiEndpoint.get("listReplies", `${comments}/:commentId/replies`)
      .setPath(CommentPath)
      .setUrlParams(Schema.Struct({ ...PageQuery, ...FormatQuery }))
      .addSuccess(ListOf(CommentReplyObject))
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.post("reply", `${comments}/:commentId/replies`)
      .setPath(CommentPath)
      .setUrlParams(Schema.Struct(FormatQuery))
      .setPayload(PostReplyInput)
      .addSuccess(CommentReplyObject, Created)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("getReply", `${comments}/:commentId/replies/:commentReplyId`)
      .setPath(ReplyPath)
      .setUrlParams(Schema.Struct(FormatQuery))
      .addSuccess(CommentReplyObject)
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.put("updateReply", `${comments}/:commentId/replies/:commentReplyId`)
      .setPath(ReplyPath)
      .setPayload(UpdateReplyInput)
      .addSuccess(CommentReplyObject)
      .pipe(errors(400, 403, 404))
  )
  .add(HttpApiEndpoint.del("removeReply", `${comments}/:commentId/replies/:commentReplyId`).setPath(ReplyPath).pipe(errors(400, 403, 404)))
  .middleware(Authentication)
{}
