import { compareKeysets, type Keyset, type Order, type PageRequest } from "@octavo/domain"
import { Option } from "effect"

/** The keyset of lists in creation order: (createdAt in epoch ms, id). */
export const byCreation = (item: { readonly createdAt: Date; readonly id: string }): Keyset => [item.createdAt.getTime(), item.id]

/** All items in keyset order, as one unlimited page would list them. */
export const sortedBy = <A>(items: ReadonlyArray<A>, keysetOf: (a: A) => Keyset, order: Order = "asc"): Array<A> => {
  const sign = order === "asc" ? 1 : -1
  return [...items].sort((a, b) => sign * compareKeysets(keysetOf(a), keysetOf(b)))
}

/** The first page of at most `limit` items. */
export const firstPage = (limit: number): PageRequest => ({ limit, after: Option.none() })

/** Case-insensitive substring match, as SQL's ILIKE '%needle%'. */
export const containsFolded = (haystack: string, needle: string): boolean => haystack.toLowerCase().includes(needle.toLowerCase())

/** Whether an item belongs to the organization. */
export const inOrganization = (organizationId: string) => (item: { readonly organizationId: string }): boolean =>
  item.organizationId === organizationId
