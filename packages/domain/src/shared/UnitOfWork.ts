import { Context, type Effect } from "effect"

/**
 * Makes a use case that writes several things atomic: when the effect fails, none of its
 * writes are kept. Every adapter provides it, the memory one included.
 */
export class UnitOfWork extends Context.Tag("@octavo/domain/UnitOfWork")<UnitOfWork, {
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}
