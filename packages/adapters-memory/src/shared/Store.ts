import { Context, Effect, FiberRef, HashMap, Layer, Option, Ref } from "effect"

/**
 * One context's part of the memory state: its persistent maps and their empty value, declared in the
 * context's own folder. The store lists no slice: a slice's state is its empty value until first written.
 */
export interface Slice<S> {
  /** Names the slice in the store; unique, like a Context.Tag key. */
  readonly key: string
  readonly empty: S
}

export const slice = <S>(key: string, empty: S): Slice<S> => ({ key, empty })

/** Every slice's state at one moment, by slice key: persistent, so a snapshot costs nothing. */
type Slices = HashMap.HashMap<string, unknown>

/** The state at one moment, read slice by slice. */
export interface Snapshot {
  readonly get: <S>(slice: Slice<S>) => S
}

const snapshotOf = (slices: Slices): Snapshot => ({
  get: <S>(slice: Slice<S>) => Option.getOrElse(HashMap.get(slices, slice.key) as Option.Option<S>, () => slice.empty)
})

/**
 * The state, read and written by the repositories. Writes are serialized; inside a transaction
 * they go to the transaction's own copy, which becomes the state only when the transaction succeeds.
 */
export class MemoryStore extends Context.Tag("@octavo/adapters-memory/MemoryStore")<MemoryStore, {
  readonly read: <A>(f: (state: Snapshot) => A) => Effect.Effect<A>
  /** Replaces one slice's state; `f` may read the others through the snapshot, and fail to change nothing. */
  readonly write: <S, A, E = never>(
    slice: Slice<S>,
    f: (current: S, state: Snapshot) => Effect.Effect<readonly [A, S], E> | readonly [A, S]
  ) => Effect.Effect<A, E>
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}

export const makeStore = Effect.gen(function*() {
  const committed = yield* Ref.make<Slices>(HashMap.empty())
  const lock = yield* Effect.makeSemaphore(1)
  // The working copy of the transaction this fiber runs in, if any.
  const working = yield* FiberRef.make<Option.Option<Ref.Ref<Slices>>>(Option.none())

  const current = Effect.map(FiberRef.get(working), Option.getOrElse(() => committed))

  const read = <A>(f: (state: Snapshot) => A) =>
    Effect.flatMap(current, (ref) => Effect.map(Ref.get(ref), (slices) => f(snapshotOf(slices))))

  const apply = <S, A, E>(
    ref: Ref.Ref<Slices>,
    slice: Slice<S>,
    f: (current: S, state: Snapshot) => Effect.Effect<readonly [A, S], E> | readonly [A, S]
  ): Effect.Effect<A, E> =>
    Effect.gen(function*() {
      const slices = yield* Ref.get(ref)
      const state = snapshotOf(slices)
      const result = f(state.get(slice), state)
      const [a, next] = Effect.isEffect(result) ? yield* result : result
      yield* Ref.set(ref, HashMap.set(slices, slice.key, next))
      return a
    })

  const write = <S, A, E = never>(
    slice: Slice<S>,
    f: (current: S, state: Snapshot) => Effect.Effect<readonly [A, S], E> | readonly [A, S]
  ) =>
    Effect.flatMap(
      FiberRef.get(working),
      Option.match({
        onSome: (ref) => apply(ref, slice, f),
        onNone: () => lock.withPermits(1)(apply(committed, slice, f))
      })
    )

  const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(
      FiberRef.get(working),
      Option.match({
        // A nested transaction joins the one it runs in.
        onSome: () => effect,
        onNone: () =>
          lock.withPermits(1)(Effect.gen(function*() {
            // Every slice at once: the copy is the whole persistent map of slices.
            const copy = yield* Ref.make(yield* Ref.get(committed))
            const a = yield* Effect.locally(effect, working, Option.some(copy))
            yield* Ref.set(committed, yield* Ref.get(copy))
            return a
          }))
      })
    )

  return { read, write, transaction }
})

export const MemoryStoreLive = Layer.scoped(MemoryStore, makeStore)
