import { Duration, Effect } from "effect"
import { call } from "../harness.js"

/** Waits until the space's Git Sync operation is no longer running; answers its git/info. */
export const settled = (spaceId: string, token: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 600; i++) {
      const info = yield* call("GET", `/v1/spaces/${spaceId}/git/info`, { token })
      if (info.status === 200 && info.body.operation?.state !== "running") return info.body
      yield* Effect.sleep(Duration.millis(25))
    }
    throw new Error("the Git Sync operation did not finish")
  })
