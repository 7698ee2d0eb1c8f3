import { conflicts, TokenRepository, UserRepository } from "@octavo/domain"
import { HashMap } from "effect"
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

export const MemoryTokenRepository = layerOver(TokenRepository, IdentityState, ({ tokens }) => ({
  insert: (token) => tokens.insert(token.id, token),
  findByHash: (hash) => tokens.find((t) => t.hash === hash),
  findById: tokens.get,
  revoke: (id, at) => tokens.modify(id, (t) => ({ ...t, revokedAt: at }))
}))
