/** How many statements one connection keeps prepared; past that, the least recently used are closed. */
export const KEPT_STATEMENTS = 256

/** A statement that may change a table's shape: a kept statement reading that table would fail with the old one. */
const SHAPE_CHANGE = /\b(?:CREATE|ALTER|DROP|TRUNCATE)\s/i

export interface KeptStatements<S> {
  /** The statement kept for `sql`, now the most recently used; undefined when none is. */
  readonly find: (sql: string) => S | undefined
  /** Whether `sql`, not kept, is to be prepared now: on its `preparedOnRun`th run (a first one is remembered). */
  readonly due: (sql: string) => boolean
  /** Keeps `statement` for `sql`; answers the least recently used ones it put out, which the caller closes. */
  readonly keep: (sql: string, statement: S) => ReadonlyArray<S>
  /** Forgets the statement kept for `sql` if it is `statement`; whether it was. */
  readonly forget: (sql: string, statement: S) => boolean
  /**
   * Before `sql`, a statement without parameters: when it may change a table's shape and statements are kept, forgets
   * them all and answers true, and the caller closes them all on the connection first.
   */
  readonly forgetBeforeShapeChange: (sql: string) => boolean
}

/** Marks `key` as the most recently used of `map`. */
const touch = <V>(map: Map<string, V>, key: string, value: V) => {
  map.delete(key)
  map.set(key, value)
}

/**
 * Which statements one connection keeps prepared, by their text, least recently used first: at most KEPT_STATEMENTS,
 * `closedAtOnce` put out together when that is reached. With `preparedOnRun` 2, a text is prepared on its second run,
 * so one-off texts (an `IN` list of a rare length) do not crowd the kept ones out; the texts run once are remembered up
 * to the same number. The PostgreSQL server's client and PGlite's keep theirs with it.
 */
export const keptStatements = <S>(options: { readonly preparedOnRun: 1 | 2; readonly closedAtOnce: number }): KeptStatements<S> => {
  const kept = new Map<string, S>()
  const seen = new Map<string, true>()
  return {
    find: (sql) => {
      const statement = kept.get(sql)
      if (statement !== undefined) touch(kept, sql, statement)
      return statement
    },
    due: (sql) => {
      if (options.preparedOnRun === 1 || seen.delete(sql)) return true
      touch(seen, sql, true)
      if (seen.size > KEPT_STATEMENTS) seen.delete(seen.keys().next().value as string)
      return false
    },
    keep: (sql, statement) => {
      const closed: Array<S> = []
      if (kept.size >= KEPT_STATEMENTS) {
        for (const [text, old] of kept) {
          if (closed.length === options.closedAtOnce) break
          kept.delete(text)
          closed.push(old)
        }
      }
      touch(kept, sql, statement)
      return closed
    },
    forget: (sql, statement) => kept.get(sql) === statement && kept.delete(sql),
    forgetBeforeShapeChange: (sql) => {
      if (kept.size === 0 || !SHAPE_CHANGE.test(sql)) return false
      kept.clear()
      return true
    }
  }
}
