import { Clock, Effect, Option } from "effect"
import { Actor } from "./Actor.js"
import { Forbidden, NotFound, Unauthenticated } from "../shared/Errors.js"
import { type TokenId, TokenId as TokenIdSchema, type UserId, UserId as UserIdSchema } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { Acquaintances, TokenRepository, UserRepository } from "./Ports.js"
import { type ApiToken, CreateTokenInput, CreateUserInput, type User } from "./User.js"

/** A token as shown once, at creation: the only time its secret is visible. */
export interface IssuedToken {
  readonly token: ApiToken
  readonly secret: string
}

const INSTANCE_ADMIN_EMAIL = "admin@octavo.local"

/**
 * How long a server trusts a token it checked before asking the storage again. A token revoked through this server
 * stops working at once; through another server sharing the storage, within this time.
 */
export const TOKEN_CHECK_MS = 1_000
/** Tokens checked recently, at most this many: the oldest check is forgotten first. */
const CHECKED_TOKENS = 10_000

/** Users and API tokens: authentication, the instance administrator, and who may see whom. */
export class Identity extends Effect.Service<Identity>()("@octavo/domain/Identity", {
  effect: Effect.gen(function*() {
    const users = yield* UserRepository
    const tokens = yield* TokenRepository
    const acquaintances = yield* Acquaintances
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork

    const userNotFound = (id: string) => new NotFound({ entity: "user", id })

    const requireInstanceAdmin = (action: string) =>
      Effect.flatMap(
        Actor,
        (actor) => actor.isInstanceAdmin ? Effect.void : Effect.fail(new Forbidden({ action, required: "the instance administrator" }))
      )

    /** The token, while it is not revoked. */
    const live = (token: Option.Option<ApiToken>) =>
      Option.isNone(token) || token.value.revokedAt !== undefined
        ? Effect.fail(new Unauthenticated({ reason: "The bearer token is unknown or revoked" }))
        : Effect.succeed(token.value)

    /** The live token with its user, while the user exists. */
    const withUser = (token: ApiToken, user: Option.Option<User>) =>
      Option.isNone(user)
        ? Effect.fail(new Unauthenticated({ reason: "The bearer token's user no longer exists" }))
        : Effect.succeed({ user: user.value, token })

    /** The token's user, while the token is not revoked and its user exists. */
    const userOf = (token: Option.Option<ApiToken>) =>
      Effect.flatMap(live(token), (found) => Effect.flatMap(users.findById(found.userId), (user) => withUser(found, user)))

    /** The token with `hash` and its user, read together, under the same rules as `userOf`. */
    const userOfHash = (hash: string) =>
      Effect.flatMap(tokens.findWithUser(hash), (found) =>
        Effect.flatMap(
          live(Option.map(found, ({ token }) => token)),
          (token) => withUser(token, Option.flatMap(found, ({ user }) => user))
        ))

    /** Tokens found valid, by hash, until a time: a client's requests in quick succession cost one lookup. */
    const checked = new Map<string, { readonly user: User; readonly token: ApiToken; readonly until: number }>()

    /** The valid token with `secret` and its user, from a recent check or from the storage. */
    const tokenWithUser = (secret: string) =>
      Effect.gen(function*() {
        const hash = yield* secrets.hashToken(secret)
        const at = yield* Clock.currentTimeMillis
        const recent = checked.get(hash)
        if (recent !== undefined && recent.until > at) return recent
        const found = yield* userOfHash(hash)
        checked.delete(hash)
        if (checked.size >= CHECKED_TOKENS) checked.delete(checked.keys().next().value as string)
        checked.set(hash, { ...found, until: at + TOKEN_CHECK_MS })
        return found
      })

    /** The user behind a bearer token; unknown and revoked tokens are refused alike. */
    const authenticate = (secret: string) => Effect.map(tokenWithUser(secret), ({ user }) => user)

    /**
     * Signing in a browser with a token: its user and the token's id, which a session keeps in place
     * of the token itself, so that revoking the token ends the session.
     */
    const signIn = (secret: string) => Effect.map(tokenWithUser(secret), ({ token, user }) => ({ user, tokenId: token.id }))

    /** The user of a session opened with the token `tokenId`, while that token holds. */
    const resumeSession = (tokenId: TokenId) => Effect.map(Effect.flatMap(tokens.findById(tokenId), userOf), ({ user }) => user)

    const issueToken = (userId: UserId, label: string, secret: string) =>
      Effect.gen(function*() {
        const token: ApiToken = {
          id: TokenIdSchema.make(yield* secrets.newId),
          userId,
          label,
          hash: yield* secrets.hashToken(secret),
          createdAt: yield* now
        }
        yield* tokens.insert(token)
        return { token, secret } satisfies IssuedToken
      })

    /**
     * Makes sure the instance administrator exists and that `secret` authenticates it.
     * Idempotent: the same secret on every start changes nothing after the first.
     */
    const bootstrapInstanceAdmin = (secret: string) =>
      uow.transaction(Effect.gen(function*() {
        const hash = yield* secrets.hashToken(secret)
        const existing = yield* tokens.findByHash(hash)
        if (Option.isSome(existing) && existing.value.revokedAt === undefined) {
          const owner = yield* users.findById(existing.value.userId)
          if (Option.isSome(owner) && owner.value.isInstanceAdmin) return owner.value
        }
        const admin = yield* users.findByEmail(INSTANCE_ADMIN_EMAIL).pipe(
          Effect.flatMap(Option.match({
            onSome: Effect.succeed,
            onNone: () =>
              Effect.gen(function*() {
                const user: User = {
                  id: UserIdSchema.make(yield* secrets.newId),
                  displayName: "Instance administrator",
                  email: INSTANCE_ADMIN_EMAIL,
                  isInstanceAdmin: true,
                  createdAt: yield* now
                }
                yield* users.insert(user).pipe(Effect.orDie)
                return user
              })
          }))
        )
        yield* issueToken(admin.id, "bootstrap", secret)
        return admin
      }))

    const createUser = (input: CreateUserInput) =>
      Effect.gen(function*() {
        yield* requireInstanceAdmin("create users")
        const valid = yield* validate(CreateUserInput)(input)
        const user: User = {
          id: UserIdSchema.make(yield* secrets.newId),
          displayName: valid.displayName,
          email: valid.email.toLowerCase(),
          isInstanceAdmin: false,
          createdAt: yield* now,
          ...(valid.photoURL !== undefined ? { photoURL: valid.photoURL } : {})
        }
        yield* users.insert(user)
        return user
      })

    /** The instance administrator manages every user's tokens; a user manages its own. */
    const requireTokenManager = (userId: UserId) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        if (actor.id === userId || actor.isInstanceAdmin) return
        yield* getUser(userId)
        return yield* new Forbidden({ action: "manage another user's tokens", required: "the instance administrator" })
      })

    const createToken = (userId: UserId, input: CreateTokenInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateTokenInput)(input)
        yield* requireTokenManager(userId)
        const user = yield* users.findById(userId)
        if (Option.isNone(user)) return yield* userNotFound(userId)
        return yield* issueToken(userId, valid.label ?? "", yield* secrets.newToken)
      })

    const revokeToken = (userId: UserId, tokenId: TokenId) =>
      Effect.gen(function*() {
        yield* requireTokenManager(userId)
        const token = yield* tokens.findById(tokenId)
        if (Option.isNone(token) || token.value.userId !== userId) {
          return yield* new NotFound({ entity: "token", id: tokenId })
        }
        if (token.value.revokedAt === undefined) yield* tokens.revoke(tokenId, yield* now)
        for (const [hash, recent] of checked) if (recent.token.id === tokenId) checked.delete(hash)
      })

    /** A user is visible to itself, to the instance administrator and to members of a common organization. */
    const getUser = (userId: UserId) =>
      Effect.gen(function*() {
        const actor = yield* Actor
        const user = yield* users.findById(userId)
        if (Option.isNone(user)) return yield* userNotFound(userId)
        if (actor.id === userId || actor.isInstanceAdmin) return user.value
        if (yield* acquaintances.shareAnOrganization(actor.id, userId)) return user.value
        return yield* userNotFound(userId)
      })

    return { authenticate, signIn, resumeSession, bootstrapInstanceAdmin, createUser, createToken, revokeToken, getUser } as const
  })
}) {}
