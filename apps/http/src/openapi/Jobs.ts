import { OpenAPISpecWorker } from "@octavo/domain"
import { Clock, Duration, Effect, Layer } from "effect"

/** How many URL specs one server fetches and processes at once. */
const OPENAPI_WORKERS = 4

/**
 * OpenAPI specs from a URL (conventions-2.md §5): workers take the jobs (several servers share them,
 * each job taken once), when a URL is submitted on this server and otherwise every second.
 */
export const ProcessOpenAPISpecs = Layer.scopedDiscard(
  Effect.flatMap(OpenAPISpecWorker, (worker) => {
    // The pause is wall-clock time: a test clock moved by days would otherwise run a poll for every second of them.
    const pause = Effect.sleep(Duration.seconds(1)).pipe(Effect.withClock(Clock.make()))
    return Effect.forEach(Array.from({ length: OPENAPI_WORKERS }), () =>
      worker.processPending.pipe(
        Effect.catchAllCause((cause) => Effect.logError("Processing OpenAPI specs failed", cause)),
        Effect.zipRight(Effect.race(worker.submitted, pause)),
        Effect.forever,
        Effect.forkScoped
      ), { discard: true })
  })
)
