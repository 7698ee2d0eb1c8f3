/**
 * A cache of at most `capacity` entries, for work a service repeats on the same input (parsing a URL,
 * reading a page's links). It keeps values as they are: share only what its readers do not change.
 */
export interface BoundedCache<K, V> {
  readonly size: () => number
  /** The value kept for `key`, or `compute(key)`, kept in its place. */
  readonly getOrCompute: (key: K, compute: (key: K) => V) => V
}

/**
 * What a full cache lets go of to keep a new entry: `oldest` the entry kept first (reading an entry
 * does not renew it), `all` every entry (cheapest when the entries seen again are recent ones).
 */
export type WhenFull = "oldest" | "all"

export const boundedCache = <K, V>(capacity: number, whenFull: WhenFull): BoundedCache<K, V> => {
  const kept = new Map<K, V>()
  return {
    size: () => kept.size,
    getOrCompute: (key, compute) => {
      const known = kept.get(key)
      if (known !== undefined || kept.has(key)) return known as V
      const value = compute(key)
      if (kept.size >= capacity) {
        if (whenFull === "all") kept.clear()
        else kept.delete(kept.keys().next().value as K)
      }
      kept.set(key, value)
      return value
    }
  }
}
