import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import {
  compareKeysets,
  countMatches,
  type Keyset,
  type Page,
  type PageHit,
  pageInMemory,
  pageKeyOf,
  type PageRequest,
  rankOf,
  type SearchDocument,
  SearchIndex,
  type SearchTerm,
  type Section,
  type SpaceHit,
  type SpaceId
} from "@octavo/domain"
import * as fc from "fast-check"
import { Effect, Layer, Option, Runtime } from "effect"
import { PgStorage } from "../src/PgStorage.js"
import * as F from "./fixtures.js"
import { sqlClients, walkPages } from "./helpers.js"

const first: PageRequest = { limit: 50, after: Option.none() }

const term = (lexeme: string, prefix = false): SearchTerm => ({ lexeme, prefix })

const doc = (
  space: string,
  page: string,
  fields: {
    readonly title?: string
    readonly description?: string
    readonly path?: string
    readonly ancestors?: SearchDocument["ancestors"]
    readonly sections?: ReadonlyArray<Section>
    readonly titleLexemes?: ReadonlyArray<string>
    readonly body?: ReadonlyArray<string>
  } = {}
): SearchDocument => {
  const titleLexemes = fields.titleLexemes ?? []
  return {
    spaceId: F.spaceId(space),
    pageId: F.pageId(page),
    title: fields.title ?? `Title ${page}`,
    description: fields.description ?? "",
    path: fields.path ?? page.toLowerCase(),
    ancestors: fields.ancestors ?? [],
    sections: fields.sections ?? [],
    titleLexemes,
    lexemes: [...new Set([...titleLexemes, ...(fields.body ?? [])])]
  }
}

/** The adapter hands lexemes back as the tsvector keeps them (sorted); the port treats them as sets. */
const sortedLexemes = (document: SearchDocument): SearchDocument => ({
  ...document,
  titleLexemes: [...document.titleLexemes].sort(),
  lexemes: [...document.lexemes].sort()
})

const comparable = (page: Page<PageHit>): Page<PageHit> => ({
  ...page,
  items: page.items.map((hit) => ({ ...hit, document: sortedLexemes(hit.document) }))
})

const pageIdsOf = (page: Page<PageHit>) => page.items.map((hit) => hit.document.pageId as string)

const pageKeyset = (hit: Pick<PageHit, "document" | "matched" | "titleMatched">): Keyset => [pageKeyOf(hit), hit.document.pageId]

// The port's definition, computed in memory with the domain's own matching, ranking and paging:
// every hit of the spaces in the order of `pages`, numbered from 1 in that order.
const referenceHits = (documents: Iterable<SearchDocument>, spaceIds: ReadonlyArray<SpaceId>, terms: ReadonlyArray<SearchTerm>) => {
  const hits: Array<Omit<PageHit, "position">> = []
  for (const document of documents) {
    if (!spaceIds.includes(document.spaceId)) continue
    const matched = countMatches(document.lexemes, terms)
    if (matched > 0) hits.push({ document: sortedLexemes(document), matched, titleMatched: countMatches(document.titleLexemes, terms) })
  }
  return hits.sort((a, b) => compareKeysets(pageKeyset(a), pageKeyset(b))).map((hit, i): PageHit => ({ ...hit, position: i + 1 }))
}

const referencePages = (documents: Iterable<SearchDocument>, spaceIds: ReadonlyArray<SpaceId>, terms: ReadonlyArray<SearchTerm>) => {
  const hits = referenceHits(documents, spaceIds, terms)
  return (request: PageRequest): Page<PageHit> => pageInMemory(hits, pageKeyset, "asc", request)
}

const referenceSpaces = (documents: Iterable<SearchDocument>, spaceIds: ReadonlyArray<SpaceId>, terms: ReadonlyArray<SearchTerm>) => {
  const best = new Map<SpaceId, number>()
  const hits = referenceHits(documents, spaceIds, terms)
  for (const hit of hits) {
    const rank = rankOf(hit.matched, hit.titleMatched)
    best.set(hit.document.spaceId, Math.min(best.get(hit.document.spaceId) ?? Infinity, rank))
  }
  const found = Array.from(best, ([spaceId, rank]) => ({ spaceId, rank }))
  return (request: PageRequest, perSpace = 0): Page<SpaceHit> => {
    const page = pageInMemory(found, (hit): Keyset => [hit.rank, hit.spaceId], "asc", request)
    // Each space's best pages: the first of its own pages, with their positions among all the spaces'.
    const items = page.items.map((hit): SpaceHit => ({
      ...hit,
      pages: hits.filter((p) => p.document.spaceId === hit.spaceId).slice(0, perSpace)
    }))
    return { ...page, items }
  }
}

// Words with prefixes of one another, multi-byte letters and digits.
const vocabulary = ["a", "ab", "abc", "abd", "b", "ba", "bab", "cab", "été", "étude", "ét", "ñu", "1", "12", "123", "x9"]
// Query lexemes: the vocabulary, prefixes of it, and words no document holds.
const queryWords = [...vocabulary, "é", "ñ", "c", "x", "zz", "abcd"]
// ASCII ids and paths whose "C" order differs from natural-language order (case, '-', '/', '_').
const spaceNames = ["A", "a", "B", "s-1"]
const pageNames = ["P", "p", "p-1", "p_1", "p1", "Q"]
const paths = ["guide", "guide/install", "guide-2", "Guide", "api", "a_b", "a-b", "a/b"]

interface Generated {
  readonly spaceIds: ReadonlyArray<string>
  readonly terms: ReadonlyArray<SearchTerm>
  readonly limit: number
  readonly after: { readonly rank: number; readonly path: string; readonly space: string; readonly page: string }
}

const sectionArb: fc.Arbitrary<Section> = fc.record({
  id: fc.constantFrom("intro", "setup", "s-1"),
  title: fc.constantFrom("Setup", "Ünïcode \"quoted\" \\ 'title'", ""),
  anchor: fc.constantFrom("", "setup", "setup-1"),
  body: fc.constantFrom("", "Body with `code` and é", "日本語 🎉\nline")
})

const documentArb = (space: string) =>
  fc.record({
    page: fc.constantFrom(...pageNames),
    title: fc.constantFrom("Installing", "Ünïcode 'title'", ""),
    description: fc.constantFrom("", "A \"quoted\" 'description' 🎉"),
    path: fc.constantFrom(...paths),
    ancestors: fc.array(
      fc.record({ id: fc.constantFrom(...pageNames).map(F.pageId), title: fc.constantFrom("Guide", "Ünïcode \\ 'a'", "") }),
      { maxLength: 2 }
    ),
    sections: fc.array(sectionArb, { maxLength: 3 }),
    titleLexemes: fc.uniqueArray(fc.constantFrom(...vocabulary), { maxLength: 3 }),
    body: fc.uniqueArray(fc.constantFrom(...vocabulary), { maxLength: 8 })
  }).map((d) => doc(space, d.page, d))

type Step =
  | {
    readonly kind: "update"
    readonly space: string
    readonly documents: ReadonlyArray<SearchDocument>
    readonly removed: ReadonlyArray<string>
  }
  | { readonly kind: "removeSpace"; readonly space: string }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...spaceNames).chain((space) =>
      fc.record({
        kind: fc.constant("update" as const),
        space: fc.constant(space),
        documents: fc.array(documentArb(space), { maxLength: 10 }),
        removed: fc.array(fc.constantFrom(...pageNames), { maxLength: 2 })
      })
    )
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("removeSpace" as const), space: fc.constantFrom(...spaceNames) }) }
)

const queryArb: fc.Arbitrary<Generated> = fc.record({
  spaceIds: fc.subarray(spaceNames),
  terms: fc.array(fc.record({ lexeme: fc.constantFrom(...queryWords), prefix: fc.boolean() }), { minLength: 1, maxLength: 4 }),
  limit: fc.integer({ min: 1, max: 3 }),
  after: fc.record({
    // Mostly ranks that hits of 1 to 4 terms have, so that the position falls among them.
    rank: fc.oneof(
      fc.constantFrom(...[1, 2, 3, 4].flatMap((m) => Array.from({ length: m + 1 }, (_, t) => rankOf(m, t)))),
      fc.nat(rankOf(0, 0))
    ),
    path: fc.constantFrom("", ...paths),
    space: fc.constantFrom("", ...spaceNames),
    page: fc.constantFrom("", ...pageNames)
  })
})

/**
 * Ids of one property run, apart from every other run's in the shared database. Page ids name their
 * space: a keyset `[key, pageId]` identifies a page within the spaces searched only if no two share an id.
 */
const spaceIn = (run: number, space: string) => F.spaceId(`${run}:${space}`)
const pageIn = (run: number, space: string, page: string) => F.pageId(`${run}:${space}/${page}`)
const inRun = (run: number, documents: ReadonlyArray<SearchDocument>, space: string) =>
  documents.map((d) => ({ ...d, spaceId: spaceIn(run, space), pageId: pageIn(run, space, d.pageId) }))

const suite = (name: string, makeClient: () => Layer.Layer<SqlClient.SqlClient>) => {
  layer(PgStorage.pipe(Layer.provideMerge(makeClient())), { timeout: "120 seconds" })(name, (it) => {
    describe("search index", () => {
      it.effect("update replaces documents, removes pages, and leaves other spaces alone", () =>
        Effect.gen(function*() {
          const index = yield* SearchIndex
          const space = F.spaceId("upd-s")
          const other = F.spaceId("upd-other")
          const sections: ReadonlyArray<Section> = [
            { id: "upd-a", title: "Install", anchor: "", body: "Run it." },
            { id: "setup", title: "Set \"up\" 'now'", anchor: "setup", body: "日本語 🎉 \\ end" }
          ]
          const a = doc("upd-s", "upd-a", {
            title: "Installing",
            path: "guide/install",
            sections,
            titleLexemes: ["instal", "installing"],
            body: ["run"]
          })
          const b = doc("upd-s", "upd-b", { path: "faq", body: ["instal", "faq"] })
          yield* index.update(space, [a, b], [])
          yield* index.update(other, [doc("upd-other", "upd-a", { body: ["instal"] })], [])
          const installed = yield* index.pages([space], [term("instal")], first)
          expect(comparable(installed)).toEqual({
            items: [
              { document: sortedLexemes(a), matched: 1, titleMatched: 1, position: 1 },
              { document: sortedLexemes(b), matched: 1, titleMatched: 0, position: 2 }
            ],
            count: 2,
            next: Option.none()
          })
          // Sections come back in order with every field.
          expect(installed.items[0]?.document.sections).toEqual(sections)

          // A new document for a page replaces the old one: its old words no longer find it.
          const a2 = doc("upd-s", "upd-a", { title: "Running", path: "run", titleLexemes: ["run"], body: [] })
          yield* index.update(space, [a2], [F.pageId("upd-b"), F.pageId("upd-never")])
          expect(pageIdsOf(yield* index.pages([space], [term("instal")], first))).toEqual([])
          expect(comparable(yield* index.pages([space], [term("run")], first)).items).toEqual([
            { document: sortedLexemes(a2), matched: 1, titleMatched: 1, position: 1 }
          ])
          // The other space's page with the same id is untouched.
          expect(pageIdsOf(yield* index.pages([other], [term("instal")], first))).toEqual(["upd-a"])

          // Removals apply before the documents of the same update; the last document of a page wins.
          const b2 = doc("upd-s", "upd-b", { body: ["faq"] })
          const b3 = doc("upd-s", "upd-b", { body: ["faq", "again"] })
          yield* index.update(space, [b2, b3], [F.pageId("upd-b"), F.pageId("upd-a")])
          expect(comparable(yield* index.pages([space], [term("faq"), term("run")], first)).items).toEqual([
            { document: sortedLexemes(b3), matched: 1, titleMatched: 0, position: 1 }
          ])
          // A document without lexemes is kept but never found.
          yield* index.update(space, [doc("upd-s", "upd-empty", { body: [] })], [])
          const stored = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
            sql<{ readonly page_id: string; readonly lexemes: string }>`SELECT page_id, lexemes::text AS lexemes
              FROM search_documents WHERE space_id = ${space} ORDER BY page_id`).pipe(Effect.orDie)
          expect(stored).toEqual([{ page_id: "upd-b", lexemes: "'again' 'faq'" }, { page_id: "upd-empty", lexemes: "" }])
        }))

      it.effect("removeSpace forgets every document of the space and no other", () =>
        Effect.gen(function*() {
          const index = yield* SearchIndex
          const [gone, kept] = [F.spaceId("rm-gone"), F.spaceId("rm-kept")]
          yield* index.update(gone, [doc("rm-gone", "rm-1", { body: ["webhook"] }), doc("rm-gone", "rm-2", { body: ["webhook"] })], [])
          yield* index.update(kept, [doc("rm-kept", "rm-1", { body: ["webhook"] })], [])
          expect((yield* index.pages([gone, kept], [term("webhook")], first)).count).toBe(3)
          yield* index.removeSpace(gone)
          yield* index.removeSpace(F.spaceId("rm-never"))
          const left = yield* index.pages([gone, kept], [term("webhook")], first)
          expect(left.items.map((hit) => [hit.document.spaceId, hit.document.pageId])).toEqual([["rm-kept", "rm-1"]])
          expect(yield* index.spaces([gone, kept], [term("webhook")], 0, first)).toEqual({
            items: [{ spaceId: kept, rank: rankOf(1, 0), pages: [] }],
            count: 1,
            next: Option.none()
          })
        }))

      it.effect("searches only the given spaces; ranks spaces by their best page", () =>
        Effect.gen(function*() {
          const index = yield* SearchIndex
          const [x, y, z] = ["flt-x", "flt-y", "flt-z"].map(F.spaceId) as [SpaceId, SpaceId, SpaceId]
          yield* index.update(x, [doc("flt-x", "flt-1", { body: ["deploy", "helm"] })], [])
          yield* index.update(y, [
            doc("flt-y", "flt-1", { titleLexemes: ["deploy"], body: ["helm"] }),
            doc("flt-y", "flt-2", { body: ["deploy"] })
          ], [])
          yield* index.update(z, [doc("flt-z", "flt-1", { body: ["other"] })], [])
          const terms = [term("deploy"), term("hel", true)]
          expect(pageIdsOf(yield* index.pages([x], terms, first))).toEqual(["flt-1"])
          expect(
            (yield* index.pages([x, y, z], terms, first)).items.map((
              hit
            ) => [hit.document.spaceId, hit.matched, hit.titleMatched, hit.position])
          ).toEqual([
            ["flt-y", 2, 1, 1],
            ["flt-x", 2, 0, 2],
            ["flt-y", 1, 0, 3]
          ])
          // A space's best pages keep their places among the pages of every space searched.
          const grouped = yield* index.spaces([z, x, y], terms, 5, first)
          expect(grouped.items.map((hit) => [hit.spaceId, hit.pages.map((p) => [p.document.pageId, p.position])])).toEqual([
            [y, [["flt-1", 1], ["flt-2", 3]]],
            [x, [["flt-1", 2]]]
          ])
          // A later page of results goes on numbering where the first stopped.
          const firstOne = yield* index.pages([x, y, z], terms, { limit: 1, after: Option.none() })
          const second = yield* index.pages([x, y, z], terms, { limit: 1, after: firstOne.next })
          expect(second.items.map((hit) => hit.position)).toEqual([2])
          expect(yield* index.spaces([z, x, y], terms, 0, first)).toEqual({
            items: [{ spaceId: y, rank: rankOf(2, 1), pages: [] }, { spaceId: x, rank: rankOf(2, 0), pages: [] }],
            count: 2,
            next: Option.none()
          })
          expect(yield* index.pages([], terms, first)).toEqual({ items: [], count: 0, next: Option.none() })
          expect(yield* index.spaces([], terms, 0, first)).toEqual({ items: [], count: 0, next: Option.none() })
          expect(yield* index.spaces([z], terms, 0, first)).toEqual({ items: [], count: 0, next: Option.none() })
        }))

      it.effect("orders ranks of one, two and three digits as their keys do, up to 16 terms", () =>
        Effect.gen(function*() {
          const index = yield* SearchIndex
          const space = F.spaceId("wide-s")
          const words = Array.from({ length: 16 }, (_, i) => `k${String.fromCharCode(97 + i)}`)
          const documents = [
            doc("wide-s", "wide-d", { path: "a", body: words.slice(0, 1) }),
            doc("wide-s", "wide-c", { path: "b", body: words.slice(0, 10) }),
            doc("wide-s", "wide-b", { path: "c", titleLexemes: words.slice(0, 11) }),
            doc("wide-s", "wide-a", { path: "d", titleLexemes: words })
          ]
          yield* index.update(space, documents, [])
          const terms = words.map((w) => term(w))
          const all = yield* index.pages([space], terms, first)
          expect(all.items.map((hit) => [pageKeyOf(hit), hit.document.pageId])).toEqual([
            ["000 d", "wide-a"],
            ["090 c", "wide-b"],
            ["118 b", "wide-c"],
            ["271 a", "wide-d"]
          ])
          const reference = referencePages(documents, [space], terms)
          expect(yield* walkPages((request) => Effect.map(index.pages([space], terms, request), comparable), reference, 1)).toBe(4)
          expect((yield* index.spaces([space], terms, 0, first)).items).toEqual([{ spaceId: space, rank: 0, pages: [] }])
        }))

      it.effect("updates more documents than one INSERT holds", () =>
        Effect.gen(function*() {
          const index = yield* SearchIndex
          const space = F.spaceId("big-s")
          const documents = Array.from({ length: 1_234 }, (_, i) =>
            doc("big-s", `big-${String(i).padStart(4, "0")}`, { body: ["bulk", `w${i % 7}`] }))
          yield* index.update(space, documents, [])
          expect((yield* index.pages([space], [term("bulk")], first)).count).toBe(1_234)
          const w3 = yield* index.pages([space], [term("w3")], { limit: 1_000, after: Option.none() })
          expect(w3.count).toBe(176)
          expect(pageIdsOf(w3)).toEqual(
            documents.filter((_, i) =>
              i % 7 === 3
            ).map((d) => d.pageId)
          )
        }))

      it.effect("keeps the lexemes in a GIN index that serves term and prefix queries", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const indexes = yield* sql<{ readonly indexdef: string }>`SELECT indexdef FROM pg_indexes
            WHERE schemaname = current_schema() AND tablename = 'search_documents' AND indexname = 'search_documents_lexemes'`
          expect(indexes.map((row) => row.indexdef.replace(/\s+/g, " "))).toEqual([
            expect.stringMatching(/USING gin \(lexemes\)$/)
          ])
          const plan = yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`SET LOCAL enable_seqscan = off`
            return yield* sql<{ readonly "QUERY PLAN": string }>`EXPLAIN SELECT page_id FROM search_documents
              WHERE lexemes @@ ${"'bulk' | 'w':*"}::tsquery`
          }))
          expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toContain("search_documents_lexemes")
        }).pipe(Effect.orDie))

      it.effect("pages and spaces equal the domain's reference for random documents and queries", () =>
        Effect.gen(function*() {
          const index = yield* SearchIndex
          const runtime = yield* Effect.runtime<SearchIndex>()
          let run = 0
          let found = 0
          let walked = 0
          let paged = 0
          const property = fc.asyncProperty(
            fc.array(stepArb, { minLength: 2, maxLength: 6 }),
            fc.array(queryArb, { minLength: 1, maxLength: 4 }),
            (steps, queries) =>
              Runtime.runPromise(runtime)(Effect.gen(function*() {
                run++
                const documents = new Map<string, Map<string, SearchDocument>>()
                for (const step of steps) {
                  const spaceId = spaceIn(run, step.space)
                  if (step.kind === "removeSpace") {
                    yield* index.removeSpace(spaceId)
                    documents.delete(spaceId)
                    continue
                  }
                  const held = documents.get(spaceId) ?? new Map<string, SearchDocument>()
                  const removed = step.removed.map((id) => pageIn(run, step.space, id))
                  const upserted = inRun(run, step.documents, step.space)
                  yield* index.update(spaceId, upserted, removed)
                  for (const id of removed) held.delete(id)
                  for (const d of upserted) held.set(d.pageId, d)
                  documents.set(spaceId, held)
                }
                const all = [...documents.values()].flatMap((held) => [...held.values()])
                for (const query of queries) {
                  const spaceIds = query.spaceIds.map((id) => spaceIn(run, id))
                  const pages = referencePages(all, spaceIds, query.terms)
                  const spaces = referenceSpaces(all, spaceIds, query.terms)
                  found += pages(first).count
                  if (pages(first).count > query.limit) paged++
                  walked += yield* walkPages(
                    (request) => Effect.map(index.pages(spaceIds, query.terms, request), comparable),
                    pages,
                    query.limit
                  )
                  yield* walkPages((request) => index.spaces(spaceIds, query.terms, 0, request), spaces, query.limit)
                  // With its best pages, each space brings the first of its own `pages`.
                  yield* walkPages(
                    (request) =>
                      Effect.map(index.spaces(spaceIds, query.terms, 2, request), (found) => ({
                        ...found,
                        items: found.items.map((hit) => ({
                          ...hit,
                          pages: hit.pages.map((p) => ({ ...p, document: sortedLexemes(p.document) }))
                        }))
                      })),
                    (request) => spaces(request, 2),
                    query.limit
                  )
                  // A position between items: strictly after it, whatever it is.
                  const { page, path, rank, space } = query.after
                  const pageAfter: PageRequest = {
                    limit: query.limit,
                    after: Option.some([
                      `${String(rank).padStart(3, "0")} ${path}`,
                      page === "" ? spaceIn(run, space) : pageIn(run, space, page)
                    ])
                  }
                  expect(comparable(yield* index.pages(spaceIds, query.terms, pageAfter))).toEqual(pages(pageAfter))
                  const spaceAfter: PageRequest = { limit: query.limit, after: Option.some([rank, spaceIn(run, space)]) }
                  expect(yield* index.spaces(spaceIds, query.terms, 0, spaceAfter)).toEqual(spaces(spaceAfter))
                }
                for (const spaceId of documents.keys()) yield* index.removeSpace(F.spaceId(spaceId))
              }))
          )
          yield* Effect.promise(() => fc.assert(property, { numRuns: 40 }))
          // The runs were not trivially empty (typically 150 to 200 hits, 25 to 35 queries over several pages).
          expect(found).toBeGreaterThan(50)
          expect(paged).toBeGreaterThan(8)
          expect(walked).toBe(found)
        }), { timeout: 120_000 })
    })
  })
}

for (const [name, makeClient] of sqlClients) suite(name, makeClient)
