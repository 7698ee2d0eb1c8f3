import { Context, Effect, Layer } from "effect"
import type { Organization } from "../organizations/Organization.js"
import type { SpaceId } from "../shared/Ids.js"

// What later contexts show on a view of a space (its change requests and comments counted, where it is published,
// its Git Sync). Each declares its own `SpaceFact` in its own folder; the spaces context knows none of them and merges
// whatever the composition root contributes, so removing a later context leaves this one whole.

/** The spaces a view is made of, all of `organization`, and the share key the read was made with, if any. */
export interface SpacesAsked {
  readonly organization: Organization
  readonly spaceIds: ReadonlyArray<SpaceId>
  readonly shareKey: string | undefined
}

/**
 * A later context's part of views of spaces: `key` names its rows in what the storage reads for many spaces at once
 * (`SpaceFactRows`); `read` reads them through its repositories, `show` turns them into what each space shows, by
 * its own rules. `Shown` is whatever that context presents; only it (and its presenters) look at it.
 */
export interface SpaceFact<Rows, Shown, RRead = never, RShow = never> {
  readonly key: string
  readonly read: Effect.Effect<(spaceIds: ReadonlyArray<SpaceId>) => Effect.Effect<Rows>, never, RRead>
  readonly show: Effect.Effect<(rows: Rows, asked: SpacesAsked) => Effect.Effect<ReadonlyMap<SpaceId, Shown>>, never, RShow>
}

/** A `SpaceFact` as a reader of its rows sees it: whatever its rule and needs, the rows it reads. */
export interface SpaceFactReading<Rows> {
  readonly key: string
  readonly read: Effect.Effect<(spaceIds: ReadonlyArray<SpaceId>) => Effect.Effect<Rows>, never, unknown>
}

/** A `SpaceFact` as a presenter sees it: whatever its rows and needs, what it shows. */
export interface SpaceFactShowing<Shown> {
  readonly key: string
  readonly show: Effect.Effect<(rows: never, asked: SpacesAsked) => Effect.Effect<ReadonlyMap<SpaceId, Shown>>, never, unknown>
}

/** Any `SpaceFact`, as a list of them holds it. */
export type AnySpaceFact = SpaceFactReading<unknown> & SpaceFactShowing<unknown>

/** The rows of each contributed fact for some spaces, by the fact's key. */
export type FactRows = ReadonlyMap<string, unknown>

/** The rows of `fact` among `rows` (the storage read them under its key). */
export const rowsOf = <Rows>(fact: SpaceFactReading<Rows>, rows: FactRows): Rows => rows.get(fact.key) as Rows

/**
 * The storage port: the rows of every contributed fact for many spaces at once. A storage that can read them in one
 * round trip answers it so (a space's view then costs one statement more than its access); the others answer it with
 * `spaceFactRowsOneByOne`, each fact's `read` in turn.
 */
export class SpaceFactRows extends Context.Tag("@octavo/domain/SpaceFactRows")<SpaceFactRows, {
  readonly of: (spaceIds: ReadonlyArray<SpaceId>) => Effect.Effect<FactRows>
}>() {}

/** What the `read`s of a list of facts need. */
type RReadOf<F> = F extends SpaceFact<infer _Rows, infer _Shown, infer R, infer _RShow> ? R : never
/** What the `show`s of a list of facts need. */
type RShowOf<F> = F extends SpaceFact<infer _Rows, infer _Shown, infer _RRead, infer R> ? R : never

/** `SpaceFactRows` over each fact's repositories, one read after the other. */
export const spaceFactRowsOneByOne = <const Facts extends ReadonlyArray<AnySpaceFact>>(
  facts: Facts
): Layer.Layer<SpaceFactRows, never, RReadOf<Facts[number]>> =>
  Layer.effect(
    SpaceFactRows,
    Effect.map(Effect.forEach(facts, (fact) => Effect.map(fact.read, (read) => [fact.key, read] as const)), (reads) =>
      SpaceFactRows.of({
        of: (spaceIds) =>
          Effect.map(
            Effect.forEach(reads, ([key, read]) => Effect.map(read(spaceIds), (rows) => [key, rows] as const)),
            (read) => new Map(read)
          )
      }))
  ) as Layer.Layer<SpaceFactRows, never, RReadOf<Facts[number]>>

/** What later contexts show of some spaces, fact by fact. */
export class SpaceFacts {
  constructor(private readonly shown: ReadonlyMap<string, ReadonlyMap<SpaceId, unknown>>) {}
  /** What `fact` shows of the space, if anything. */
  of<Shown>(fact: SpaceFactShowing<Shown>, spaceId: SpaceId): Shown | undefined {
    return this.shown.get(fact.key)?.get(spaceId) as Shown | undefined
  }
}

/** Turns the facts' rows of some spaces into what they show: every contributed fact by its own rules. */
export class SpaceFactShows extends Context.Tag("@octavo/domain/SpaceFactShows")<SpaceFactShows, {
  readonly show: (rows: FactRows, asked: SpacesAsked) => Effect.Effect<SpaceFacts>
}>() {}

/** `SpaceFactShows` of `facts`: the composition root's list of what later contexts contribute. */
export const spaceFactShows = <const Facts extends ReadonlyArray<AnySpaceFact>>(
  facts: Facts
): Layer.Layer<SpaceFactShows, never, RShowOf<Facts[number]>> =>
  Layer.effect(
    SpaceFactShows,
    Effect.map(Effect.forEach(facts, (fact) => Effect.map(fact.show, (show) => ({ fact, show }))), (shows) =>
      SpaceFactShows.of({
        show: (rows, asked) =>
          Effect.map(
            // Each fact's rows are those the storage read under its key, of the type its `read` answers.
            Effect.forEach(shows, ({ fact, show }) =>
              Effect.map(show(rows.get(fact.key) as never, asked), (shown) => [fact.key, shown] as const)),
            (shown) =>
              new SpaceFacts(new Map(shown))
          )
      }))
  ) as Layer.Layer<SpaceFactShows, never, RShowOf<Facts[number]>>
