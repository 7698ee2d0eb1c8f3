import { type Keyset, type Order, type Page, pageInMemory, type PageRequest } from "@octavo/domain"
import { type Context, Effect, HashMap, Layer, Option } from "effect"
import { MemoryStore, type Slice, type Snapshot } from "./Store.js"

type MapOf<V> = HashMap.HashMap<string, V>
type ValueOf<M> = M extends HashMap.HashMap<string, infer V> ? V : never
type Store = Context.Tag.Service<MemoryStore>

/** A slice whose state is persistent maps by string key: an id, or a `pairKey`. */
export type MapsState<S> = { readonly [K in keyof S]: HashMap.HashMap<string, unknown> }

/** The key of an entry that two ids name together, such as a member (organization, user). */
export const pairKey = (a: string, b: string): string => `${a}/${b}`

/** Names the error that refuses a write, seeing the map before it and the rest of the state; or nothing. */
export type ConflictCheck<V, E> = (map: MapOf<V>, state: Snapshot) => E | undefined

/** A unique constraint: the write fails with `error` when a held value is the `same` as the one written. */
export const unique = <V, E>(same: (held: V) => boolean, error: () => E): ConflictCheck<V, E> => (map) =>
  HashMap.some(map, same) ? error() : undefined

/** One map of a slice, read and written through the store. */
export interface Table<V> {
  /** The map as the snapshot holds it. */
  readonly in: (state: Snapshot) => MapOf<V>
  /** Its values as the snapshot holds them, in no particular order. */
  readonly valuesIn: (state: Snapshot) => Array<V>
  readonly get: (key: string) => Effect.Effect<Option.Option<V>>
  readonly getMany: (keys: ReadonlyArray<string>) => Effect.Effect<Array<V>>
  readonly find: (predicate: (value: V) => boolean) => Effect.Effect<Option.Option<V>>
  readonly filter: (predicate: (value: V) => boolean) => Effect.Effect<Array<V>>
  readonly count: (predicate: (value: V) => boolean) => Effect.Effect<number>
  /** The values that pass, one page of them in keyset order. */
  readonly page: (
    predicate: (value: V) => boolean,
    keysetOf: (value: V) => Keyset,
    order: Order,
    request: PageRequest
  ) => Effect.Effect<Page<V>>
  /** Sets the entry, unless `conflict` names an error: then the write fails and changes nothing. */
  readonly insert: <E = never>(key: string, value: V, conflict?: ConflictCheck<V, E>) => Effect.Effect<void, E>
  /** Changes an existing entry; changing what is not there changes nothing, as in SQL. */
  readonly modify: (key: string, f: (held: V) => V) => Effect.Effect<void>
  /** Replaces an existing entry, unless `conflict` names an error; replacing what is not there changes nothing, as in SQL. */
  readonly replace: <E = never>(key: string, value: V, conflict?: ConflictCheck<V, E>) => Effect.Effect<void, E>
  /** Sets the entry from what it holds now, if anything. */
  readonly upsert: (key: string, f: (held: Option.Option<V>) => V) => Effect.Effect<void>
  readonly remove: (key: string) => Effect.Effect<void>
  readonly update: (f: (map: MapOf<V>, state: Snapshot) => MapOf<V>) => Effect.Effect<void>
}

/** Each map of a slice as a table, by the slice's field names. */
export type Tables<S> = { readonly [K in keyof S]: Table<ValueOf<S[K]>> }

const values = <V>(map: MapOf<V>): Array<V> => Array.from(HashMap.values(map))

const tableOf = <S, V>(store: Store, slice: Slice<S>, field: keyof S): Table<V> => {
  const mapOf = (s: S) => s[field] as MapOf<V>
  const within = (s: S, map: MapOf<V>): S => ({ ...s, [field]: map })
  const inState = (state: Snapshot) => mapOf(state.get(slice))
  const read = <A>(f: (map: MapOf<V>) => A) => store.read((state) => f(inState(state)))
  const update = (f: (map: MapOf<V>, state: Snapshot) => MapOf<V>) =>
    store.write(slice, (s, state) => [undefined, within(s, f(mapOf(s), state))] as const)
  // Sets what `next` makes of the held entry, unless it makes nothing or `conflict` names an error.
  const put = <E = never>(
    key: string,
    next: (held: Option.Option<V>) => Option.Option<V>,
    conflict?: ConflictCheck<V, E>
  ) =>
    store.write(slice, (s, state): Effect.Effect<readonly [void, S], E> => {
      const map = mapOf(s)
      const value = next(HashMap.get(map, key))
      if (Option.isNone(value)) return Effect.succeed([undefined, s])
      const error = conflict?.(map, state)
      return error === undefined ? Effect.succeed([undefined, within(s, HashMap.set(map, key, value.value))]) : Effect.fail(error)
    })
  return {
    in: inState,
    valuesIn: (state) => values(inState(state)),
    get: (key) => read((map) => HashMap.get(map, key)),
    getMany: (keys) => read((map) => keys.flatMap((key) => Option.toArray(HashMap.get(map, key)))),
    find: (predicate) => read((map) => Option.map(HashMap.findFirst(map, predicate), ([, value]) => value)),
    filter: (predicate) => read((map) => values(map).filter(predicate)),
    count: (predicate) =>
      read((map) => {
        let n = 0
        for (const value of HashMap.values(map)) if (predicate(value)) n++
        return n
      }),
    page: (predicate, keysetOf, order, request) => read((map) => pageInMemory(values(map).filter(predicate), keysetOf, order, request)),
    insert: (key, value, conflict) => put(key, () => Option.some(value), conflict),
    modify: (key, f) => put(key, Option.map(f)),
    replace: (key, value, conflict) => put(key, Option.map(() => value), conflict),
    upsert: (key, f) => put(key, (held) => Option.some(f(held))),
    remove: (key) => update((map) => HashMap.remove(map, key)),
    update
  }
}

export const tablesOf = <S extends MapsState<S>>(store: Store, slice: Slice<S>): Tables<S> =>
  Object.fromEntries(
    Object.keys(slice.empty).map((field) => [field, tableOf(store, slice, field as keyof S)])
  ) as unknown as Tables<S>

/** The usual writes and look-up of entities kept by id. */
export const byId = <V extends { readonly id: string }>(table: Table<V>) => ({
  insert: (value: V) => table.insert(value.id, value),
  update: (value: V) => table.replace(value.id, value),
  delete: (id: string) => table.remove(id),
  findById: table.get
})

/** Changes several maps of one slice in one write. */
export const change = <S>(store: Store, slice: Slice<S>, f: (current: S, state: Snapshot) => S): Effect.Effect<void> =>
  store.write(slice, (current, state) => [undefined, f(current, state)] as const)

/**
 * A port's layer over one slice: `make` gets the slice's tables and the store (for other slices,
 * or writes over several maps).
 */
export const layerOver = <I, A, S extends MapsState<S>>(
  tag: Context.Tag<I, A>,
  slice: Slice<S>,
  make: (tables: Tables<S>, store: Store) => A
): Layer.Layer<I, never, MemoryStore> => Layer.effect(tag, Effect.map(MemoryStore, (store) => make(tablesOf(store, slice), store)))
