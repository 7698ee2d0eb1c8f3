import type {
  ApiToken,
  ChangeRequest,
  Collection,
  ContentPage,
  CustomField,
  CustomFieldId,
  CustomFieldValue,
  File,
  Invite,
  Member,
  Organization,
  Revision,
  RevisionId,
  SearchDocument,
  Space,
  SpaceId,
  Team,
  TeamMembership,
  User
} from "@octavo/domain"
import { Context, Effect, FiberRef, HashMap, Layer, Option, Ref } from "effect"

/** Everything the memory adapter keeps: persistent maps, so a snapshot costs nothing. */
export interface State {
  readonly users: HashMap.HashMap<string, User>
  readonly tokens: HashMap.HashMap<string, ApiToken>
  readonly organizations: HashMap.HashMap<string, Organization>
  /** Keyed by `${organizationId}/${userId}`. */
  readonly members: HashMap.HashMap<string, Member>
  readonly teams: HashMap.HashMap<string, Team>
  /** Keyed by `${teamId}/${userId}`. */
  readonly teamMemberships: HashMap.HashMap<string, TeamMembership>
  readonly invites: HashMap.HashMap<string, Invite>
  readonly collections: HashMap.HashMap<string, Collection>
  readonly spaces: HashMap.HashMap<string, Space>
  readonly revisions: HashMap.HashMap<string, Revision>
  readonly customFields: HashMap.HashMap<string, CustomField>
  /** Keyed by `${spaceId}/${fieldId}`. */
  readonly customFieldValues: HashMap.HashMap<string, { readonly spaceId: SpaceId; readonly fieldId: CustomFieldId; readonly value: CustomFieldValue }>
  /** Each revision's pages and files as persistent maps: a revision shares what it did not change with its parent. */
  readonly revisionContents: HashMap.HashMap<string, {
    readonly pages: HashMap.HashMap<string, ContentPage>
    readonly files: HashMap.HashMap<string, File>
  }>
  readonly blobs: HashMap.HashMap<string, Uint8Array>
  readonly changeRequests: HashMap.HashMap<string, ChangeRequest>
  /** Search documents by space id, then page id. */
  readonly searchDocuments: HashMap.HashMap<string, HashMap.HashMap<string, SearchDocument>>
  /** The revision each space's search documents follow, by space id. */
  readonly searchRevisions: HashMap.HashMap<string, RevisionId>
}

export const emptyState: State = {
  users: HashMap.empty(),
  tokens: HashMap.empty(),
  organizations: HashMap.empty(),
  members: HashMap.empty(),
  teams: HashMap.empty(),
  teamMemberships: HashMap.empty(),
  invites: HashMap.empty(),
  collections: HashMap.empty(),
  spaces: HashMap.empty(),
  revisions: HashMap.empty(),
  customFields: HashMap.empty(),
  customFieldValues: HashMap.empty(),
  revisionContents: HashMap.empty(),
  blobs: HashMap.empty(),
  changeRequests: HashMap.empty(),
  searchDocuments: HashMap.empty(),
  searchRevisions: HashMap.empty()
}

/** Replaces an existing entry; updating what is not there changes nothing, as in SQL. */
export const replace = <V>(map: HashMap.HashMap<string, V>, key: string, value: V): HashMap.HashMap<string, V> =>
  HashMap.has(map, key) ? HashMap.set(map, key, value) : map

export const values = <V>(map: HashMap.HashMap<string, V>): Array<V> => Array.from(HashMap.values(map))

export const pairKey = (a: string, b: string): string => `${a}/${b}`

/**
 * The state, read and written by the repositories. Writes are serialized; inside a transaction
 * they go to the transaction's own copy, which becomes the state only when the transaction succeeds.
 */
export class MemoryStore extends Context.Tag("@octavo/adapters-memory/MemoryStore")<MemoryStore, {
  readonly read: <A>(f: (state: State) => A) => Effect.Effect<A>
  readonly write: <A, E = never>(f: (state: State) => Effect.Effect<readonly [A, State], E> | readonly [A, State]) => Effect.Effect<A, E>
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}

export const makeStore = Effect.gen(function*() {
  const committed = yield* Ref.make(emptyState)
  const lock = yield* Effect.makeSemaphore(1)
  // The working copy of the transaction this fiber runs in, if any.
  const working = yield* FiberRef.make<Option.Option<Ref.Ref<State>>>(Option.none())

  const current = Effect.map(FiberRef.get(working), Option.getOrElse(() => committed))

  const read = <A>(f: (state: State) => A) => Effect.flatMap(current, (ref) => Effect.map(Ref.get(ref), f))

  const apply = <A, E>(
    ref: Ref.Ref<State>,
    f: (state: State) => Effect.Effect<readonly [A, State], E> | readonly [A, State]
  ): Effect.Effect<A, E> =>
    Effect.gen(function*() {
      const result = f(yield* Ref.get(ref))
      const [a, next] = Effect.isEffect(result) ? yield* result : result
      yield* Ref.set(ref, next)
      return a
    })

  const write = <A, E = never>(f: (state: State) => Effect.Effect<readonly [A, State], E> | readonly [A, State]) =>
    Effect.flatMap(FiberRef.get(working), Option.match({
      onSome: (ref) => apply(ref, f),
      onNone: () => lock.withPermits(1)(apply(committed, f))
    }))

  const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(working), Option.match({
      // A nested transaction joins the one it runs in.
      onSome: () => effect,
      onNone: () =>
        lock.withPermits(1)(Effect.gen(function*() {
          const copy = yield* Ref.make(yield* Ref.get(committed))
          const a = yield* Effect.locally(effect, working, Option.some(copy))
          yield* Ref.set(committed, yield* Ref.get(copy))
          return a
        }))
    }))

  return { read, write, transaction }
})

export const MemoryStoreLive = Layer.scoped(MemoryStore, makeStore)
