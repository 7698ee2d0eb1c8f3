import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { keyAfterLast, keyBetween } from "../src/shared/Position.js"

describe("positions", () => {
  it("places keys between, before and after others", () => {
    const first = keyBetween(undefined, undefined)
    const second = keyBetween(first, undefined)
    const zeroth = keyBetween(undefined, first)
    expect(zeroth < first && first < second).toBe(true)
    expect(keyAfterLast([first, second, zeroth]) > second).toBe(true)
    expect(() => keyBetween(second, first)).toThrow()
  })

  it("keeps any sequence of insertions strictly ordered, with no key ending in 0", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 300 }), (choices) => {
        const keys: Array<string> = []
        for (const choice of choices) {
          // Insert at a random gap: before the first, between two, or after the last.
          const at = choice % (keys.length + 1)
          const key = keyBetween(keys[at - 1], keys[at])
          keys.splice(at, 0, key)
        }
        for (let i = 1; i < keys.length; i++) expect(keys[i - 1]! < keys[i]!).toBe(true)
        for (const key of keys) expect(key.endsWith("0")).toBe(false)
      }),
      { numRuns: 200 }
    )
  })

  it("stays short when items are always added at the end or the start", () => {
    const keys: Array<string> = []
    for (let i = 0; i < 1000; i++) keys.push(keyBetween(keys[keys.length - 1], undefined))
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(40)
    let head = keys[0]!
    for (let i = 0; i < 1000; i++) head = keyBetween(undefined, head)
    expect(head.length).toBeLessThanOrEqual(40)
  })
})
