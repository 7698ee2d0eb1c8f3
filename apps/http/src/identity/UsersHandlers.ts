import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Actor, Identity } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { created, createdAs, PublicUrl } from "../shared/Handlers.js"
import { presentToken, presentUser, tokenLocation } from "./Present.js"
import { UsersApi } from "./UsersApi.js"

export const UsersLive = HttpApiBuilder.group(OctavoBase.add(UsersApi), "users", (handlers) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    const base = yield* PublicUrl
    const present = presentUser(base)
    return handlers
      .handle("me", () => Effect.map(Actor, present))
      .handle("create", ({ payload }) => domain(identity.createUser(payload)).pipe(Effect.flatMap(createdAs(present))))
      .handle("get", ({ path }) => domain(identity.getUser(path.userId)).pipe(Effect.map(present)))
      .handle("createToken", ({ path, payload }) =>
        domain(identity.createToken(path.userId, payload)).pipe(Effect.flatMap((made) =>
          created(tokenLocation(base, made.token), presentToken(made))
        )))
      .handle("revokeToken", ({ path }) =>
        domain(identity.revokeToken(path.userId, path.tokenId)))
  }))
