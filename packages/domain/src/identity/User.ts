import { Schema } from "effect"
import { TokenId, UserId } from "../shared/Ids.js"
import { boundedString, Email, HttpUrl } from "../shared/Limits.js"

export const DisplayName = boundedString({ min: 1, max: 255 })
export const TokenLabel = boundedString({ max: 100 })

export const User = Schema.Struct({
  id: UserId,
  displayName: DisplayName,
  /** Stored lower-cased: an email names one user. */
  email: Email,
  photoURL: Schema.optional(HttpUrl),
  /** Instance administrators manage users; they are not organization members by that alone. */
  isInstanceAdmin: Schema.Boolean,
  createdAt: Schema.DateFromSelf
})
export type User = typeof User.Type

export const ApiToken = Schema.Struct({
  id: TokenId,
  userId: UserId,
  label: TokenLabel,
  /** SHA-256 of the secret; the secret is shown once, at creation. */
  hash: Schema.String,
  createdAt: Schema.DateFromSelf,
  revokedAt: Schema.optional(Schema.DateFromSelf)
})
export type ApiToken = typeof ApiToken.Type

export const CreateUserInput = Schema.Struct({
  displayName: DisplayName,
  email: Email,
  photoURL: Schema.optional(HttpUrl)
})
export type CreateUserInput = typeof CreateUserInput.Type

export const CreateTokenInput = Schema.Struct({
  label: Schema.optional(TokenLabel)
})
export type CreateTokenInput = typeof CreateTokenInput.Type
