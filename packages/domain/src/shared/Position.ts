import { Effect } from "effect"
import { InvalidInput } from "./Errors.js"

/**
 * Order keys for siblings (conventions.md, "Positions"): strings that sort with plain string
 * comparison, so moving one item writes one key and never renumbers its siblings.
 * A key is a fraction in base 62 (digits 0-9A-Za-z, most significant first) that never ends in 0,
 * so there is always room between two keys.
 */
const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const BASE = DIGITS.length

const value = (digit: string): number => DIGITS.indexOf(digit)
const digit = (n: number): string => DIGITS.charAt(n)

/** A key strictly between `lower` ("" for the lowest) and `upper` (null for the highest). */
const between = (lower: string, upper: string | null): string => {
  if (upper !== null) {
    // Keep the common prefix; `lower` reads as if padded with zeros.
    let n = 0
    while (n < upper.length && (lower[n] ?? "0") === upper[n]) n++
    if (n > 0) return upper.slice(0, n) + between(lower.slice(n), upper.slice(n))
  }
  const low = lower.length > 0 ? value(lower.charAt(0)) : 0
  const high = upper !== null && upper.length > 0 ? value(upper.charAt(0)) : BASE
  if (high - low > 1) return digit(Math.floor((low + high) / 2))
  // Adjacent first digits: the upper's first digit alone fits when the upper goes on after it.
  if (upper !== null && upper.length > 1) return upper.charAt(0)
  return digit(low) + between(lower.slice(1), null)
}

/** The next key after `key`, short when items keep being added at the end. */
const increment = (key: string): string => {
  const last = value(key.charAt(key.length - 1))
  return last < BASE - 1 ? key.slice(0, -1) + digit(last + 1) : `${key}V`
}

/** The key before `key`, short when items keep being added at the start. */
const decrement = (key: string): string => {
  const last = value(key.charAt(key.length - 1))
  return last > 1 ? key.slice(0, -1) + digit(last - 1) : `${key.slice(0, -1)}0V`
}

/** The key for an item placed between two siblings' keys; undefined stands for "no sibling there". */
export const keyBetween = (before: string | undefined, after: string | undefined): string => {
  if (before === undefined) return after === undefined ? "V" : decrement(after)
  if (after === undefined) return increment(before)
  if (before >= after) throw new Error(`keyBetween: ${before} is not below ${after}`)
  return between(before, after)
}

/** A key after every given key: where an item goes at the end of its parent. */
export const keyAfterLast = (keys: ReadonlyArray<string>): string =>
  keyBetween(keys.reduce<string | undefined>((max, k) => (max === undefined || k > max ? k : max), undefined), undefined)

/** An item with its order key among its siblings. */
export interface Placed {
  readonly id: string
  readonly position: string
}

/** A sibling named in input: its id, and the input field that holds it (for the error). */
export interface NamedSibling {
  readonly id: string
  readonly field: string
}

const comparePlaced = (a: Placed, b: Placed) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0

/** Items in their siblings' order: by order key, then by id. */
export const inOrder = <A extends Placed>(items: ReadonlyArray<A>): Array<A> => [...items].sort(comparePlaced)

/**
 * The order key for an item placed among `siblings` (the target parent's children, without the
 * item itself): after `after`, before `before` (both: they must be adjacent), else at the end.
 * Naming an item that is not among the siblings is invalid input.
 */
export const placeAmongSiblings = (
  siblings: ReadonlyArray<Placed>,
  position: { readonly before?: NamedSibling | undefined; readonly after?: NamedSibling | undefined }
): Effect.Effect<string, InvalidInput> => {
  const ordered = inOrder(siblings)
  const keys = ordered.map((s) => s.position)
  const named = (side: "before" | "after", ref: NamedSibling) => {
    const i = ordered.findIndex((s) => s.id === ref.id)
    return i < 0
      ? Effect.fail(
        new InvalidInput({ field: `position.${side}.${ref.field}`, rule: `${ref.id} is not a sibling under the target parent` })
      )
      : Effect.succeed(i)
  }
  // Neighbours with the same key (left by concurrent placements) count as one.
  const below = (i: number) => keys.slice(0, i).reverse().find((k) => k < keys[i]!)
  const above = (i: number) => keys.slice(i + 1).find((k) => k > keys[i]!)
  const { after, before } = position
  if (after !== undefined) {
    return Effect.gen(function*() {
      const i = yield* named("after", after)
      if (before !== undefined) {
        const j = yield* named("before", before)
        if (j !== i + 1) {
          return yield* new InvalidInput({ field: "position", rule: "before and after must name adjacent siblings" })
        }
      }
      return keyBetween(keys[i], above(i))
    })
  }
  if (before !== undefined) return Effect.map(named("before", before), (i) => keyBetween(below(i), keys[i]))
  return Effect.succeed(keyBetween(keys[keys.length - 1], undefined))
}
