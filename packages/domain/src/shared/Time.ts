import { Clock, Effect } from "effect"

/** The current time as a Date, from Effect's Clock so tests can move it. */
export const now: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
