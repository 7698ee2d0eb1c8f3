import { describe, expect, it } from "@effect/vitest"
import { boundedCache } from "../src/shared/BoundedCache.js"

const fill = (whenFull: "oldest" | "all") => {
  const cache = boundedCache<string, number>(3, whenFull)
  const computed: Array<string> = []
  const read = (key: string) => cache.getOrCompute(key, (k) => (computed.push(k), k.length))
  return { cache, computed, read }
}

describe("boundedCache", () => {
  it("computes a key once while it is kept, undefined values included", () => {
    const cache = boundedCache<string, number | undefined>(2, "oldest")
    let calls = 0
    expect(cache.getOrCompute("a", () => (calls++, undefined))).toBe(undefined)
    expect(cache.getOrCompute("a", () => (calls++, 1))).toBe(undefined)
    expect(calls).toBe(1)
  })

  it("oldest: lets go of the entry kept first, reading an entry does not renew it", () => {
    const { cache, computed, read } = fill("oldest")
    for (const key of ["a", "bb", "ccc", "a", "dddd", "bb", "a"]) read(key)
    expect(computed).toEqual(["a", "bb", "ccc", "dddd", "a"])
    expect(cache.size()).toBe(3)
  })

  it("all: lets go of every entry when one more comes", () => {
    const { cache, computed, read } = fill("all")
    for (const key of ["a", "bb", "ccc", "dddd", "a", "dddd", "ccc"]) read(key)
    expect(computed).toEqual(["a", "bb", "ccc", "dddd", "a", "ccc"])
    expect(cache.size()).toBe(3)
  })
})
