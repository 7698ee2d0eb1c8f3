/**
 * The domain's `Turns` on Node's event loop (issue 38): a due turn waits for `setImmediate`, which runs once Node has
 * read the I/O waiting (requests, bodies, new connections), so that work which grows with its input never holds the
 * other requests for more than about `TURN_MS`.
 */
import { turnDue, Turns, turnTaken } from "@octavo/domain"
import { Effect, Layer } from "effect"

const give: Effect.Effect<void> = Effect.suspend(() =>
  turnDue()
    ? Effect.async<void>((resume) => {
      const handle = setImmediate(() => {
        turnTaken()
        resume(Effect.void)
      })
      return Effect.sync(() => clearImmediate(handle))
    })
    : Effect.void
)

export const EventLoopTurnsLive: Layer.Layer<never> = Layer.succeed(Turns, { give })
