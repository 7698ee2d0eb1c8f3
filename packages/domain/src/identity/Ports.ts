import { Context, type Effect, type Option } from "effect"
import type { Conflict } from "../shared/Errors.js"
import type { TokenId, UserId } from "../shared/Ids.js"
import type { ApiToken, User } from "./User.js"

export class UserRepository extends Context.Tag("@octavo/domain/UserRepository")<UserRepository, {
  /** Fails with Conflict when the email is taken. */
  readonly insert: (user: User) => Effect.Effect<void, Conflict>
  readonly findById: (id: UserId) => Effect.Effect<Option.Option<User>>
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<User>>
  readonly findManyByIds: (ids: ReadonlyArray<UserId>) => Effect.Effect<ReadonlyArray<User>>
}>() {}

export class TokenRepository extends Context.Tag("@octavo/domain/TokenRepository")<TokenRepository, {
  readonly insert: (token: ApiToken) => Effect.Effect<void>
  readonly findByHash: (hash: string) => Effect.Effect<Option.Option<ApiToken>>
  /** The token with `hash` (as `findByHash`) and its user, when the user exists, in one read. */
  readonly findWithUser: (
    hash: string
  ) => Effect.Effect<Option.Option<{ readonly token: ApiToken; readonly user: Option.Option<User> }>>
  readonly findById: (id: TokenId) => Effect.Effect<Option.Option<ApiToken>>
  readonly revoke: (id: TokenId, at: Date) => Effect.Effect<void>
}>() {}

/**
 * Who shares an organization with whom: users are visible to each other through a common
 * organization. Declared here, implemented with the organizations' storage (a later context).
 */
export class Acquaintances extends Context.Tag("@octavo/domain/Acquaintances")<Acquaintances, {
  /** Whether two users are members of at least one common organization. */
  readonly shareAnOrganization: (a: UserId, b: UserId) => Effect.Effect<boolean>
}>() {}

/** The storage the identity context owns. */
export type IdentityPorts = UserRepository | TokenRepository
