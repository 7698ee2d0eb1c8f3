import { ApiToken, User } from "@octavo/domain"
import { Schema } from "effect"

// The wire shapes of users and their tokens, fields from the domain's where they match.

export const UserObject = Schema.Struct({
  object: Schema.Literal("user"),
  ...User.pick("id", "displayName", "email", "photoURL").fields,
  urls: Schema.Struct({ location: Schema.String })
}).annotations({ identifier: "User" })

export const ApiTokenObject = Schema.Struct({
  object: Schema.Literal("api-token"),
  ...ApiToken.pick("id", "label").fields,
  /** The secret, shown this once. */
  token: Schema.String,
  createdAt: Schema.Date
}).annotations({ identifier: "ApiToken" })
