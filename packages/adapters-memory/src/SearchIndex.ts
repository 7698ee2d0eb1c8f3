import {
  countMatches,
  type Keyset,
  type PageHit,
  pageInMemory,
  pageKeyOf,
  rankOf,
  type SearchDocument,
  SearchIndex,
  type SearchTerm,
  type SpaceHit,
  type SpaceId
} from "@octavo/domain"
import { Effect, HashMap, Layer, Option } from "effect"
import { MemoryStore } from "./Store.js"

const hitsIn = (documents: Iterable<SearchDocument>, terms: ReadonlyArray<SearchTerm>): Array<PageHit> => {
  const hits: Array<PageHit> = []
  for (const document of documents) {
    const matched = countMatches(document.lexemes, terms)
    if (matched > 0) hits.push({ document, matched, titleMatched: countMatches(document.titleLexemes, terms) })
  }
  return hits
}

const pageKeyset = (hit: PageHit): Keyset => [pageKeyOf(hit), hit.document.pageId]

/** The search index in memory: each space's documents, scanned per query with the domain's own matching and ranking. */
export const MemorySearchIndex = Layer.effect(
  SearchIndex,
  Effect.map(MemoryStore, (store) => {
    const documentsOf = (spaceIds: ReadonlyArray<SpaceId>) =>
      store.read((s) => spaceIds.map((id) => Option.getOrElse(HashMap.get(s.searchDocuments, id), () => HashMap.empty<string, SearchDocument>())))

    return SearchIndex.of({
      update: (spaceId, documents, removed) =>
        store.write((s) => {
          let held = Option.getOrElse(HashMap.get(s.searchDocuments, spaceId), () => HashMap.empty<string, SearchDocument>())
          for (const id of removed) held = HashMap.remove(held, id)
          for (const document of documents) held = HashMap.set(held, document.pageId, document)
          return [undefined, { ...s, searchDocuments: HashMap.set(s.searchDocuments, spaceId, held) }] as const
        }),
      indexedRevision: (spaceId) => store.read((s) => HashMap.get(s.searchRevisions, spaceId)),
      markIndexed: (spaceId, revisionId) =>
        store.write((s) => [undefined, { ...s, searchRevisions: HashMap.set(s.searchRevisions, spaceId, revisionId) }] as const),
      staleSpaces: (limit) =>
        store.read((s) =>
          Array.from(HashMap.values(s.spaces))
            .filter((space) => space.deletedAt === undefined && Option.getOrUndefined(HashMap.get(s.searchRevisions, space.id)) !== space.revisionId)
            .map((space) => space.id)
            .sort()
            .slice(0, limit)
        ),
      removeSpace: (spaceId) =>
        store.write((s) => [undefined, {
          ...s,
          searchDocuments: HashMap.remove(s.searchDocuments, spaceId),
          searchRevisions: HashMap.remove(s.searchRevisions, spaceId)
        }] as const),
      pages: (spaceIds, terms, page) =>
        Effect.map(documentsOf(spaceIds), (held) => {
          const hits = held.flatMap((documents) => hitsIn(HashMap.values(documents), terms))
          return pageInMemory(hits, pageKeyset, "asc", page)
        }),
      spaces: (spaceIds, terms, perSpace, page) =>
        Effect.map(documentsOf(spaceIds), (held) => {
          const found: Array<SpaceHit> = []
          held.forEach((documents, i) => {
            const best = pageInMemory(hitsIn(HashMap.values(documents), terms), pageKeyset, "asc", { limit: Math.max(perSpace, 1), after: Option.none() })
            const top = best.items[0]
            if (top !== undefined) {
              found.push({ spaceId: spaceIds[i] as SpaceId, rank: rankOf(top.matched, top.titleMatched), pages: best.items.slice(0, perSpace) })
            }
          })
          return pageInMemory(found, (hit): Keyset => [hit.rank, hit.spaceId], "asc", page)
        })
    })
  })
)
