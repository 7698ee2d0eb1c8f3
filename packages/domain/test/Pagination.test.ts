import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { decodeCursor, encodeCursor, listKey, pageInMemory, pageRequest } from "../src/index.js"

describe("pagination", () => {
  it.effect("a cursor round-trips only on its own list", () =>
    Effect.gen(function*() {
      const joined = listKey("members", "number", "org", "joinedAt", "desc")
      const token = encodeCursor(joined, [42, "abc"])
      expect(yield* decodeCursor(joined, token)).toEqual([42, "abc"])
      const other = yield* Effect.either(decodeCursor(listKey("members", "number", "org", "lastSeenAt", "desc"), token))
      expect(Either.isLeft(other)).toBe(true)
      for (const forged of ["!!", "bm90IGpzb24", encodeCursor(listKey("x", "number"), [1, "a"]).slice(0, 5), ""]) {
        const result = yield* Effect.either(decodeCursor(joined, forged))
        expect(Either.isLeft(result) && result.left.field).toBe("page")
      }
    }))

  it.effect("limit must be 1 to 1000", () =>
    Effect.gen(function*() {
      const l = listKey("l", "number")
      expect((yield* pageRequest(l, { limit: 1000 })).limit).toBe(1000)
      expect((yield* pageRequest(l, {})).limit).toBe(50)
      for (const limit of [0, 1001, 1.5]) {
        expect(Either.isLeft(yield* Effect.either(pageRequest(l, { limit })))).toBe(true)
      }
    }))

  it.effect("a token is bound to how its list sorts, and scope parts cannot run into each other", () =>
    Effect.gen(function*() {
      // A query ending in what once marked order-key lists changes nothing: the sort is part of the key.
      const byNumber = listKey("search", "number", "space", "q@key")
      const token = encodeCursor(byNumber, [1, "a"])
      expect(yield* decodeCursor(byNumber, token)).toEqual([1, "a"])
      expect(Either.isLeft(yield* Effect.either(decodeCursor(listKey("search", "string", "space", "q@key"), token)))).toBe(true)
      expect(Either.isLeft(yield* Effect.either(decodeCursor(byNumber, encodeCursor(byNumber, ["k", "a"]))))).toBe(true)
      expect(listKey("a", "number", "b:c").name).not.toBe(listKey("a", "number", "b", "c").name)
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
