import { conflicts, TokenRepository, UserRepository } from "@octavo/domain"
import { Effect, HashMap, Option } from "effect"
import { layerOver } from "../shared/index.js"
import { IdentityState } from "./State.js"

export const MemoryUserRepository = layerOver(UserRepository, IdentityState, ({ users }) => ({
  insert: (user) =>
    users.insert(user.id, user, (held) =>
      HashMap.has(held, user.id)
        ? conflicts.idTaken("user", user.id)
        : HashMap.some(held, (u) => u.email === user.email)
        ? conflicts.emailTaken(user.email)
        : undefined),
  findById: users.get,
  findByEmail: (email) => users.find((u) => u.email === email),
  findManyByIds: users.getMany
}))

export const MemoryTokenRepository = layerOver(TokenRepository, IdentityState, ({ tokens, users }) => {
  const findByHash = (hash: string) => tokens.find((t) => t.hash === hash)
  return {
    insert: (token) => tokens.insert(token.id, token),
    findByHash,
    findWithUser: (hash) =>
      Effect.flatMap(findByHash(hash), (found) =>
        Option.match(found, {
          onNone: () => Effect.succeedNone,
          onSome: (token) => Effect.map(users.get(token.userId), (user) => Option.some({ token, user }))
        })),
    findById: tokens.get,
    revoke: (id, at) => tokens.modify(id, (t) => ({ ...t, revokedAt: at }))
  }
})
