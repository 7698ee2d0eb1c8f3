import { describe, expect, it } from "@effect/vitest"
import { MemoryStore, MemoryStoreLive } from "@octavo/adapters-memory"
import { Effect, HashMap, Option } from "effect"
import { slice, tablesOf } from "../src/shared/index.js"

// Two slices the store has never heard of, as a new context would declare them.
const Notes = slice("test/notes", { notes: HashMap.empty<string, string>() })
const Tags = slice("test/tags", { tags: HashMap.empty<string, number>() })

const tables = Effect.map(MemoryStore, (store) => ({ store, ...tablesOf(store, Notes), ...tablesOf(store, Tags) }))
const held = Effect.flatMap(
  tables,
  ({ store, notes, tags }) => store.read((state) => ({ notes: HashMap.size(notes.in(state)), tags: HashMap.size(tags.in(state)) }))
)

describe("MemoryStore", () => {
  it.effect("reads a slice it was never told about as its empty value, then as written", () =>
    Effect.gen(function*() {
      const { notes } = yield* tables
      expect(yield* held).toEqual({ notes: 0, tags: 0 })
      yield* notes.insert("a", "first")
      expect(yield* notes.get("a")).toEqual(Option.some("first"))
      expect(yield* held).toEqual({ notes: 1, tags: 0 })
    }).pipe(Effect.provide(MemoryStoreLive)))

  it.effect("commits a unit of work's writes to every slice together", () =>
    Effect.gen(function*() {
      const { notes, store, tags } = yield* tables
      yield* store.transaction(Effect.zipRight(notes.insert("a", "first"), tags.insert("a", 1)))
      expect(yield* held).toEqual({ notes: 1, tags: 1 })
    }).pipe(Effect.provide(MemoryStoreLive)))

  it.effect("leaves no slice changed when a unit of work fails", () =>
    Effect.gen(function*() {
      const { notes, store, tags } = yield* tables
      yield* notes.insert("kept", "before")
      const failed = yield* store.transaction(
        Effect.gen(function*() {
          yield* notes.insert("a", "first")
          yield* tags.insert("a", 1)
          // Inside the unit, its own writes are seen.
          expect(yield* held).toEqual({ notes: 2, tags: 1 })
          return yield* Effect.fail("refused" as const)
        })
      ).pipe(Effect.flip)
      expect(failed).toBe("refused")
      expect(yield* held).toEqual({ notes: 1, tags: 0 })
    }).pipe(Effect.provide(MemoryStoreLive)))

  it.effect("refuses a write whose conflict check names an error, changing nothing", () =>
    Effect.gen(function*() {
      const { notes } = yield* tables
      yield* notes.insert("a", "first")
      const refused = yield* notes.insert("b", "first", (map) => HashMap.some(map, (n) => n === "first") ? "taken" : undefined)
        .pipe(Effect.flip)
      expect(refused).toBe("taken")
      expect(yield* held).toEqual({ notes: 1, tags: 0 })
    }).pipe(Effect.provide(MemoryStoreLive)))
})
