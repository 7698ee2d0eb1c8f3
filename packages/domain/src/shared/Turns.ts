import { Context, Effect } from "effect"

/**
 * Turns of the event loop for work that can wait (issue 38). A JavaScript thread runs one thing at a time, and Effect's
 * fibers take turns among themselves without letting Node read its sockets: a request that parses fifty pages one
 * after another would hold every other request (a health check, a page view) until it is done. Work that grows with
 * its input calls `giveTurn` between its steps; once the thread has run `TURN_MS` since its last turn, the server's
 * `Turns` waits for the event loop to read what is waiting, and the other requests' fibers run before the work goes on.
 * By default (embedders, the domain's tests) no turn is given, and such work runs to its end as one synchronous call.
 */
export const TURN_MS = 10

let lastTurn = performance.now()

/** Whether the thread has run `TURN_MS` since its last turn. */
export const turnDue = (): boolean => performance.now() - lastTurn >= TURN_MS

/** Marks a turn of the event loop: the thread has just come back from reading what was waiting. */
export const turnTaken = (): void => {
  lastTurn = performance.now()
}

export interface TurnGiver {
  /** Gives the event loop a turn if one is due (`turnDue`), marking it taken; does nothing otherwise. */
  readonly give: Effect.Effect<void>
}

export class Turns extends Context.Reference<Turns>()("@octavo/domain/Turns", {
  defaultValue: (): TurnGiver => ({ give: Effect.void })
}) {}

/** A turn of the event loop if one is due, as `Turns` gives it. */
export const giveTurn: Effect.Effect<void> = Effect.flatMap(Turns, (turns) => turns.give)

/** `f` on each item in order, a turn given before each item when one is due: `Effect.forEach` for work that can wait. */
export const forEachInTurns = <A, B, E, R>(
  items: Iterable<A>,
  f: (item: A, index: number) => Effect.Effect<B, E, R>
): Effect.Effect<Array<B>, E, R> => Effect.forEach(items, (item, index) => Effect.zipRight(giveTurn, f(item, index)))
