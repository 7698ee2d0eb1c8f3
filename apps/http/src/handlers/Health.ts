import { HttpApiBuilder } from "@effect/platform"
import { UserId, UserRepository } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"

export const HealthLive = HttpApiBuilder.group(OctavoApi, "health", (handlers) =>
  Effect.gen(function*() {
    const users = yield* UserRepository
    return handlers
      .handle("live", () => Effect.succeed({ status: "ok" as const }))
      // Ready when the storage answers a query.
      .handle("ready", () => Effect.as(users.findById(UserId.make("readiness-probe")), { status: "ok" as const }))
  }))
