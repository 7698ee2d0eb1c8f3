import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import {
  type ContentPage,
  emptyContent,
  KEPT_CONTENT_BYTES,
  PageId,
  type RevisionContent,
  RevisionContentRepository,
  RevisionContents,
  RevisionId
} from "../src/index.js"

const page = (id: string, markdown = "Hello"): ContentPage => ({
  id: PageId.make(id),
  kind: "document",
  title: id,
  slug: id,
  parentId: null,
  position: "V",
  markdown,
  hidden: false,
  noIndex: false,
  noRobotsIndex: false,
  createdAt: new Date(0),
  updatedAt: new Date(0)
})

const contentOf = (...pages: ReadonlyArray<ContentPage>): RevisionContent => ({
  pages: new Map(pages.map((p) => [p.id, p])),
  files: new Map()
})

/** A storage holding `stored`, counting the loads that reach it. */
const storage = (stored: Map<string, RevisionContent>, loads: Array<string>) =>
  Layer.succeed(
    RevisionContentRepository,
    RevisionContentRepository.of({
      save: () => Effect.void,
      load: (revisionId) =>
        Effect.sync(() => {
          loads.push(revisionId)
          return stored.get(revisionId) ?? emptyContent
        }),
      loadPage: (revisionId, pageId) => Effect.succeed(Option.fromNullable(stored.get(revisionId)?.pages.get(pageId))),
      loadBranch: () => Effect.succeed([])
    })
  )

const withCache = <A>(stored: Map<string, RevisionContent>, loads: Array<string>, use: (kept: RevisionContents) => Effect.Effect<A>) =>
  Effect.flatMap(RevisionContents, use).pipe(Effect.provide(RevisionContents.Default.pipe(Layer.provide(storage(stored, loads)))))

describe("RevisionContents", () => {
  it.effect("reads a revision from the storage once, then from memory", () =>
    Effect.gen(function*() {
      const r1 = RevisionId.make("r1")
      const stored = new Map([[r1, contentOf(page("a"))]])
      const loads: Array<string> = []
      const [first, second] = yield* withCache(stored, loads, (kept) => Effect.all([kept.load(r1), kept.load(r1)]))
      expect(first).toEqual(contentOf(page("a")))
      expect(second).toBe(first)
      expect(loads).toEqual(["r1"])
    }))

  it.effect("keeps what a write remembers, and never keeps empty content, which a later save may fill", () =>
    Effect.gen(function*() {
      const [written, later] = [RevisionId.make("written"), RevisionId.make("later")]
      const stored = new Map<string, RevisionContent>()
      const loads: Array<string> = []
      yield* withCache(stored, loads, (kept) =>
        Effect.gen(function*() {
          yield* kept.remember(written, contentOf(page("w")))
          expect(yield* kept.load(written)).toEqual(contentOf(page("w")))
          expect(yield* kept.load(later)).toEqual(emptyContent)
          stored.set(later, contentOf(page("l")))
          expect(yield* kept.load(later)).toEqual(contentOf(page("l")))
        }))
      expect(loads).toEqual(["later", "later"])
    }))

  it.effect("drops the least recently used revisions beyond its budget", () =>
    Effect.gen(function*() {
      // Each revision weighs about a third of the budget: three fit, a fourth drops the least recently used.
      const big = (id: string) => contentOf(page(id, "x".repeat(Math.floor(KEPT_CONTENT_BYTES / 3) - 1024)))
      const ids = ["r1", "r2", "r3", "r4"].map((id) => RevisionId.make(id))
      const stored = new Map(ids.map((id) => [id, big(id)] as const))
      const loads: Array<string> = []
      yield* withCache(stored, loads, (kept) =>
        Effect.gen(function*() {
          for (const id of ids.slice(0, 3)) yield* kept.load(id)
          yield* kept.load(ids[0]!) // r1 is now the most recently used
          yield* kept.load(ids[3]!) // r4 comes in, r2 goes
          yield* kept.load(ids[0]!)
          yield* kept.load(ids[2]!)
          yield* kept.load(ids[1]!)
        }))
      expect(loads).toEqual(["r1", "r2", "r3", "r4", "r2"])
    }))

  it.effect("does not keep a revision heavier than its whole budget", () =>
    Effect.gen(function*() {
      const huge = RevisionId.make("huge")
      const stored = new Map([[huge, contentOf(page("h", "x".repeat(KEPT_CONTENT_BYTES)))]])
      const loads: Array<string> = []
      yield* withCache(stored, loads, (kept) => Effect.zipRight(kept.load(huge), kept.load(huge)))
      expect(loads).toEqual(["huge", "huge"])
    }))
})
