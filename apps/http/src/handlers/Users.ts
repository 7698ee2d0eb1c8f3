import { HttpApiBuilder } from "@effect/platform"
import { Actor, Identity } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { created, domain, presentUser, PublicUrl } from "../Present.js"

export const UsersLive = HttpApiBuilder.group(OctavoApi, "users", (handlers) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    const base = yield* PublicUrl
    const present = presentUser(base)
    return handlers
      .handle("me", () => Effect.map(Actor, present))
      .handle("create", ({ payload }) =>
        domain(identity.createUser(payload)).pipe(Effect.flatMap((user) => created(present(user).urls.location, present(user)))))
      .handle("get", ({ path }) => domain(identity.getUser(path.userId)).pipe(Effect.map(present)))
      .handle("createToken", ({ path, payload }) =>
        domain(identity.createToken(path.userId, payload)).pipe(Effect.flatMap(({ secret, token }) =>
          created(`${base}/v1/users/${token.userId}/tokens/${token.id}`, {
            object: "api-token" as const,
            id: token.id,
            label: token.label,
            token: secret,
            createdAt: token.createdAt
          })
        )))
      .handle("revokeToken", ({ path }) => domain(identity.revokeToken(path.userId, path.tokenId)))
  }))
