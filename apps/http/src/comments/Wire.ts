import { Comment, CommentReply, MAX_NODE_PREVIEW } from "@octavo/domain"
import { Schema } from "effect"
import { UserObject } from "../identity/Wire.js"

// Wire shapes of change request comments and their replies (GitBook's `Comment`, `CommentReply`),
// fields from the domain's where they match.

/** A user as comments name them; one no longer known is named by its id alone. */
const Person = Schema.Struct({ ...UserObject.fields, email: Schema.optional(UserObject.fields.email) })

/** GitBook's `EmojiReactions`: per emoji, who reacted and when, in the order they did. */
const Reactions = Schema.Array(Schema.Struct({
  emoji: Schema.String,
  count: Schema.Number,
  users: Schema.Array(Schema.Struct({ user: Person, reactedAt: Schema.Date }))
}))

/** GitBook's `Document` as a comment body: markdown, or a document tree with `format=document`. */
const Body = Schema.Struct({ markdown: Schema.optional(Schema.String), document: Schema.optional(Schema.Unknown) })

const Permissions = Schema.Struct({ view: Schema.Boolean, edit: Schema.Boolean, reply: Schema.Boolean, delete: Schema.Boolean })

const Target = Schema.Struct({
  changeRequest: Comment.fields.changeRequestId,
  space: Comment.fields.spaceId,
  /** The change request's revision when the comment was posted. */
  revision: Comment.fields.revisionId,
  page: Schema.optional(Schema.Struct({
    id: Schema.String,
    title: Schema.optional(Schema.String),
    emoji: Schema.optional(Schema.String),
    icon: Schema.optional(Schema.String),
    createdAt: Schema.optional(Schema.Date),
    updatedAt: Schema.optional(Schema.Date),
    path: Schema.optional(Schema.String),
    /** The page is gone from the change request, or the block is gone or its text changed. */
    outdated: Schema.Boolean
  })),
  node: Schema.optional(Schema.Struct({
    id: Schema.String,
    preview: Schema.String.annotations({
      description: `The block's text when the comment was posted, at most ${MAX_NODE_PREVIEW} characters`
    })
  }))
})

export const CommentObject = Schema.Struct({
  object: Schema.Literal("comment"),
  id: Comment.fields.id,
  postedBy: Person,
  postedAt: Schema.Date,
  editedAt: Schema.optional(Schema.Date),
  reactions: Reactions,
  ...Comment.pick("replies").fields,
  repliers: Schema.Array(Schema.Struct({ user: Person, count: Schema.Number, updatedAt: Schema.Date })),
  body: Body,
  target: Target,
  urls: Schema.Struct({ location: Schema.String }),
  permissions: Permissions,
  ...Comment.pick("status").fields,
  resolvedAt: Schema.optional(Schema.Date),
  resolvedBy: Schema.optional(Person)
}).annotations({ identifier: "Comment" })

export const CommentReplyObject = Schema.Struct({
  object: Schema.Literal("comment-reply"),
  id: CommentReply.fields.id,
  postedBy: Person,
  postedAt: Schema.Date,
  editedAt: Schema.optional(Schema.Date),
  reactions: Reactions,
  body: Body,
  urls: Schema.Struct({ location: Schema.String }),
  permissions: Permissions
}).annotations({ identifier: "CommentReply" })
