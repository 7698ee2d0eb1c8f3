import { MemoryStorage } from "@octavo/adapters-memory"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { call, testServer } from "./harness.js"
import { newUser } from "./scenario.js"

// With the test services, the server runs on a TestClock: moving it runs the hourly purge job.
layer(testServer(MemoryStorage))("space lifecycle over HTTP", (it) => {
  it.effect("a deleted space is restorable for 7 days; then restore is 412 and the job removes it", () =>
    Effect.gen(function*() {
      const admin = yield* newUser("Lifecycle Admin")
      const org = yield* call("POST", "/v1/orgs", { token: admin.token, body: { title: "Lifecycle" } })
      const kept = yield* call("POST", `/v1/orgs/${org.body.id}/spaces`, { token: admin.token, body: { title: "Kept" } })
      const lost = yield* call("POST", `/v1/orgs/${org.body.id}/spaces`, { token: admin.token, body: { title: "Lost" } })
      expect((yield* call("DELETE", `/v1/spaces/${kept.body.id}`, { token: admin.token })).status).toBe(204)
      expect((yield* call("DELETE", `/v1/spaces/${lost.body.id}`, { token: admin.token })).status).toBe(204)
      yield* TestClock.adjust(Duration.days(7))
      const restored = yield* call("POST", `/v1/spaces/${kept.body.id}/restore`, { token: admin.token })
      expect(restored.status).toBe(200)
      yield* TestClock.adjust(Duration.minutes(1))
      const late = yield* call("POST", `/v1/spaces/${lost.body.id}/restore`, { token: admin.token })
      expect(late.status).toBe(412)
      expect(late.body.error.message).toBe("The space was deleted more than 7 days ago and can no longer be restored")
      // The job runs hourly: an hour later the space is gone for good.
      yield* TestClock.adjust(Duration.hours(1))
      const gone = yield* call("POST", `/v1/spaces/${lost.body.id}/restore`, { token: admin.token })
      expect(gone.status).toBe(404)
      expect((yield* call("GET", `/v1/spaces/${kept.body.id}`, { token: admin.token })).status).toBe(200)
    }))
})
