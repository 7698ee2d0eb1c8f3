import { Effect, Option, Schema } from "effect"
import { InvalidInput } from "./Errors.js"
import { StoredString } from "./Limits.js"

export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 1000

/** `limit` query parameter: an integer from 1 to 1000. */
export const Limit = Schema.NumberFromString.pipe(
  Schema.filter((n) => (Number.isInteger(n) && n >= 1 && n <= MAX_LIMIT) || `must be an integer from 1 to ${MAX_LIMIT}`)
)

/** Sort direction of a list. */
export const Order = Schema.Literal("asc", "desc")
export type Order = typeof Order.Type

/**
 * A keyset position: the sort value (epoch milliseconds, or a sibling order key) and the id of the last item of a page.
 * Lists are ordered by (sort value, id), so walking pages returns every item once even while items are added.
 */
export type Keyset = readonly [value: number | string, id: string]

export interface PageRequest {
  readonly limit: number
  readonly after: Option.Option<Keyset>
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  /** How many items match the filters, on all pages. */
  readonly count: number
  /** Where the next page starts; none on the last page. */
  readonly next: Option.Option<Keyset>
}

/**
 * Names one list (its kind, and the ids and filters that choose and order its items) and says
 * whether its keyset sorts by numbers (epoch milliseconds, counts) or by strings (order keys,
 * ranks). A page token is bound to its list key: a token from another list is refused, not misread.
 * Each context makes the keys of its lists (`<context>/Lists.ts`).
 */
export interface ListKey {
  readonly name: string
  readonly sortsBy: "number" | "string"
}

/** The key of a list of `kind` sorted by `sortsBy`, scoped by `scope` (ids, filters, order, a query). */
export const listKey = (
  kind: string,
  sortsBy: ListKey["sortsBy"],
  ...scope: ReadonlyArray<string | number | boolean | null | undefined>
): ListKey => ({ name: JSON.stringify([kind, ...scope.map((part) => part ?? null)]), sortsBy })

// Tokens are not signed: their strings reach SQL as keyset bounds, so they are StoredStrings.
const CursorPayload = Schema.parseJson(Schema.Struct({
  l: Schema.String,
  k: Schema.Tuple(Schema.Union(Schema.Number, StoredString), StoredString)
}))

const toBase64Url = (s: string): string => {
  const bytes = new TextEncoder().encode(s)
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

const fromBase64Url = (s: string): string | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return undefined
  try {
    const binary = atob(s.replace(/-/g, "+").replace(/_/g, "/"))
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

/** Encodes a position in the list `key` as the opaque `page` token of that list. */
export const encodeCursor = (key: ListKey, keyset: Keyset): string => toBase64Url(JSON.stringify({ l: key.name, k: keyset }))

export const decodeCursor = (key: ListKey, token: string): Effect.Effect<Keyset, InvalidInput> => {
  const invalid = new InvalidInput({ field: "page", rule: "is not a page token of this list" })
  const json = fromBase64Url(token)
  if (json === undefined) return Effect.fail(invalid)
  return Schema.decodeUnknown(CursorPayload)(json).pipe(
    Effect.mapError(() => invalid),
    Effect.filterOrFail((payload) => payload.l === key.name && typeof payload.k[0] === key.sortsBy, () => invalid),
    Effect.map((payload) => payload.k)
  )
}

/** A page request from the wire's `limit` and `page`. */
export const pageRequest = (
  list: ListKey,
  query: { readonly limit?: number | undefined; readonly page?: string | undefined }
): Effect.Effect<PageRequest, InvalidInput> => {
  const limit = query.limit ?? DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    return Effect.fail(new InvalidInput({ field: "limit", rule: `must be an integer from 1 to ${MAX_LIMIT}` }))
  }
  if (query.page === undefined) return Effect.succeed({ limit, after: Option.none() })
  return Effect.map(decodeCursor(list, query.page), (keyset) => ({ limit, after: Option.some(keyset) }))
}

/** Compares two keysets in ascending order. */
export const compareKeysets = (a: Keyset, b: Keyset): number => {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1
  return 0
}

/**
 * Pages through items that are all in memory: sorts by keyset in the given order and keeps
 * what comes after the request's position. The memory adapter lists with it; the reference for SQL.
 */
export const pageInMemory = <A>(
  all: ReadonlyArray<A>,
  keysetOf: (a: A) => Keyset,
  order: Order,
  request: PageRequest
): Page<A> => {
  const sign = order === "asc" ? 1 : -1
  const sorted = [...all].sort((a, b) => sign * compareKeysets(keysetOf(a), keysetOf(b)))
  const after = request.after
  const rest = Option.isSome(after)
    ? sorted.filter((a) => sign * compareKeysets(keysetOf(a), after.value) > 0)
    : sorted
  const items = rest.slice(0, request.limit)
  const last = items[items.length - 1]
  return {
    items,
    count: all.length,
    next: rest.length > request.limit && last !== undefined ? Option.some(keysetOf(last)) : Option.none()
  }
}

export const mapPage = <A, B>(page: Page<A>, f: (a: A) => B): Page<B> => ({ ...page, items: page.items.map(f) })
