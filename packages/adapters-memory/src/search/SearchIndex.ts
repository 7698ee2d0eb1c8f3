import {
  compareKeysets,
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
import { Effect, HashMap, Option } from "effect"
import { change, layerOver } from "../shared/index.js"
import { SpacesState } from "../spaces/index.js"
import { SearchState } from "./State.js"

const pageKeyset = (hit: Pick<PageHit, "document" | "matched" | "titleMatched">): Keyset => [pageKeyOf(hit), hit.document.pageId]

/** The matching pages of these documents, in the order of `pages`, each with its position among them. */
const hitsIn = (documents: Iterable<SearchDocument>, terms: ReadonlyArray<SearchTerm>): Array<PageHit> => {
  const hits: Array<Omit<PageHit, "position">> = []
  for (const document of documents) {
    const matched = countMatches(document.lexemes, terms)
    if (matched > 0) hits.push({ document, matched, titleMatched: countMatches(document.titleLexemes, terms) })
  }
  return hits.sort((a, b) => compareKeysets(pageKeyset(a), pageKeyset(b))).map((hit, i) => ({ ...hit, position: i + 1 }))
}

const noDocuments = HashMap.empty<string, SearchDocument>()

/** The search index in memory: each space's documents, scanned per query with the domain's own matching and ranking. */
export const MemorySearchIndex = layerOver(SearchIndex, SearchState, ({ documents, revisions }, store) => {
  const documentsOf = (spaceIds: ReadonlyArray<SpaceId>) =>
    store.read((state) => spaceIds.map((id) => Option.getOrElse(HashMap.get(documents.in(state), id), () => noDocuments)))

  return {
    update: (spaceId, written, removed) =>
      documents.update((bySpace) => {
        let held = Option.getOrElse(HashMap.get(bySpace, spaceId), () => noDocuments)
        for (const id of removed) held = HashMap.remove(held, id)
        for (const document of written) held = HashMap.set(held, document.pageId, document)
        return HashMap.set(bySpace, spaceId, held)
      }),
    indexedRevision: revisions.get,
    markIndexed: (spaceId, revisionId) => revisions.upsert(spaceId, () => revisionId),
    staleSpaces: (limit) =>
      store.read((state) =>
        Array.from(HashMap.values(state.get(SpacesState).spaces))
          .filter((space) =>
            space.deletedAt === undefined && Option.getOrUndefined(HashMap.get(revisions.in(state), space.id)) !== space.revisionId
          )
          .map((space) => space.id)
          .sort()
          .slice(0, limit)
      ),
    removeSpace: (spaceId) =>
      change(store, SearchState, (s) => ({
        ...s,
        documents: HashMap.remove(s.documents, spaceId),
        revisions: HashMap.remove(s.revisions, spaceId)
      })),
    pages: (spaceIds, terms, page) =>
      Effect.map(
        documentsOf(spaceIds),
        (held) => pageInMemory(hitsIn(held.flatMap((documents) => [...HashMap.values(documents)]), terms), pageKeyset, "asc", page)
      ),
    spaces: (spaceIds, terms, perSpace, page) =>
      Effect.map(documentsOf(spaceIds), (held) => {
        const bySpace = new Map<SpaceId, Array<PageHit>>()
        for (const hit of hitsIn(held.flatMap((documents) => [...HashMap.values(documents)]), terms)) {
          const pages = bySpace.get(hit.document.spaceId) ?? []
          pages.push(hit)
          bySpace.set(hit.document.spaceId, pages)
        }
        const found = Array.from(bySpace, ([spaceId, pages]): SpaceHit => ({
          spaceId,
          rank: rankOf(pages[0]!.matched, pages[0]!.titleMatched),
          pages: pages.slice(0, perSpace)
        }))
        return pageInMemory(found, (hit): Keyset => [hit.rank, hit.spaceId], "asc", page)
      })
  }
})
