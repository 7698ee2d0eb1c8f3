import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { UserId, UserRepository } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { HealthApi } from "./HealthApi.js"

export const HealthLive = HttpApiBuilder.group(OctavoBase.add(HealthApi), "health", (handlers) =>
  Effect.gen(function*() {
    const users = yield* UserRepository
    return handlers
      .handle("live", () => Effect.succeed({ status: "ok" as const }))
      // Ready when the storage answers a query.
      .handle("ready", () => Effect.as(users.findById(UserId.make("readiness-probe")), { status: "ok" as const }))
  }))
