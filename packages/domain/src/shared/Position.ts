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
