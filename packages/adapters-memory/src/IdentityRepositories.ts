import { conflicts, TokenRepository, UserRepository } from "@octavo/domain"
import { Effect, HashMap, Layer, Option } from "effect"
import { MemoryStore } from "./Store.js"

export const MemoryUserRepository = Layer.effect(
  UserRepository,
  Effect.map(MemoryStore, (store) => ({
    insert: (user) =>
      store.write((s) => {
        if (HashMap.has(s.users, user.id)) return Effect.fail(conflicts.idTaken("user", user.id))
        return HashMap.some(s.users, (u) => u.email === user.email)
          ? Effect.fail(conflicts.emailTaken(user.email))
          : Effect.succeed([undefined, { ...s, users: HashMap.set(s.users, user.id, user) }] as const)
      }),
    findById: (id) => store.read((s) => HashMap.get(s.users, id)),
    findByEmail: (email) => store.read((s) => HashMap.findFirst(s.users, (u) => u.email === email).pipe(Option.map(([, u]) => u))),
    findManyByIds: (ids) => store.read((s) => ids.flatMap((id) => Option.toArray(HashMap.get(s.users, id))))
  }))
)

export const MemoryTokenRepository = Layer.effect(
  TokenRepository,
  Effect.map(MemoryStore, (store) => ({
    insert: (token) => store.write((s) => [undefined, { ...s, tokens: HashMap.set(s.tokens, token.id, token) }] as const),
    findByHash: (hash) =>
      store.read((s) => HashMap.findFirst(s.tokens, (t) => t.hash === hash).pipe(Option.map(([, t]) => t))),
    findById: (id) => store.read((s) => HashMap.get(s.tokens, id)),
    revoke: (id, at) =>
      store.write((s) => [undefined, { ...s, tokens: HashMap.modify(s.tokens, id, (t) => ({ ...t, revokedAt: at })) }] as const)
  }))
)
