import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { decodeCursor, encodeCursor, pageInMemory, pageRequest } from "../src/index.js"

describe("pagination", () => {
  it.effect("a cursor round-trips only on its own list", () =>
    Effect.gen(function*() {
      const token = encodeCursor("members:joinedAt:desc", [42, "abc"])
      expect(yield* decodeCursor("members:joinedAt:desc", token)).toEqual([42, "abc"])
      const other = yield* Effect.either(decodeCursor("members:lastSeenAt:desc", token))
      expect(Either.isLeft(other)).toBe(true)
      for (const forged of ["!!", "bm90IGpzb24", encodeCursor("x", [1, "a"]).slice(0, 5), ""]) {
        const result = yield* Effect.either(decodeCursor("members:joinedAt:desc", forged))
        expect(Either.isLeft(result) && result.left.field).toBe("page")
      }
    }))

  it.effect("limit must be 1 to 1000", () =>
    Effect.gen(function*() {
      expect((yield* pageRequest("l", { limit: 1000 })).limit).toBe(1000)
      expect((yield* pageRequest("l", {})).limit).toBe(50)
      for (const limit of [0, 1001, 1.5]) {
        expect(Either.isLeft(yield* Effect.either(pageRequest("l", { limit })))).toBe(true)
      }
    }))

  it("pages in memory by keyset in both orders", () => {
    const items = [3, 1, 2, 2].map((n, i) => ({ n, id: `i${i}` }))
    const key = (x: { n: number; id: string }) => [x.n, x.id] as const
    const p1 = pageInMemory(items, key, "desc", { limit: 3, after: Option.none() })
    expect(p1.items.map((x) => x.id)).toEqual(["i0", "i3", "i2"])
    expect(p1.count).toBe(4)
    const p2 = pageInMemory(items, key, "desc", { limit: 3, after: p1.next })
    expect(p2.items.map((x) => x.id)).toEqual(["i1"])
    expect(p2.next).toEqual(Option.none())
  })
})
