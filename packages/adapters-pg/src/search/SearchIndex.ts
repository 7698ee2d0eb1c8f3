import * as SqlClient from "@effect/sql/SqlClient"
import {
  MAX_TERMS,
  type Page,
  type PageHit,
  pageKeyOf,
  type SearchDocument,
  SearchIndex,
  type SearchTerm,
  type SpaceHit
} from "@octavo/domain"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { findAll, findOne, Jsonb, rowOf } from "../shared/Rows.js"
import { afterKeyset } from "../shared/Sql.js"

// Rows per INSERT: nine parameters each, far below Postgres's 65,535; few enough that embedded PGlite, which runs a
// statement without a turn of the event loop, holds it tens of milliseconds (issue 38).
const INSERT_CHUNK = 200

// The index keeps whatever ids it is given: they are branded here, not checked again.
const SpaceId = Schema.String.pipe(Schema.brand("SpaceId"))
type SpaceId = typeof SpaceId.Type
const PageId = Schema.String.pipe(Schema.brand("PageId"))
const RevisionId = Schema.String.pipe(Schema.brand("RevisionId"))

/** A part of a page, as the domain's `Section` (an interface) holds it. */
const Section = Schema.Struct({ id: Schema.String, title: Schema.String, anchor: Schema.String, body: Schema.String })
const Sections = Schema.Array(Section)
const encodeSections = Schema.encodeSync(Jsonb(Sections))
/** The pages above a page, as the domain's `Ancestor` (an interface) holds them. */
const Ancestors = Schema.Array(Schema.Struct({ id: PageId, title: Schema.String }))
const encodeAncestors = Schema.encodeSync(Jsonb(Ancestors))

/** The domain's `SearchDocument` (an interface) as a schema, so that its row derives like an entity's. */
const SearchDocument = Schema.Struct({
  spaceId: SpaceId,
  pageId: PageId,
  title: Schema.String,
  description: Schema.String,
  path: Schema.String,
  ancestors: Ancestors,
  sections: Sections,
  titleLexemes: Schema.Array(Schema.String),
  lexemes: Schema.Array(Schema.String)
}) satisfies { readonly Type: SearchDocument }

const hitFields = { matched: Schema.Number, titleMatched: Schema.Number, position: Schema.Number }
const PageHit = Schema.Struct({ document: SearchDocument, ...hitFields })

// Lexemes come back as the tsvector keeps them: distinct and sorted, not in the order given.
/** A matching document's row: its columns, with the terms it matched (`matching`) and its position. */
const PageHitRow = Schema.transform(
  rowOf(Schema.Struct({ ...SearchDocument.fields, ...hitFields }), {
    sections: Jsonb(Sections),
    ancestors: Jsonb(Ancestors)
  }),
  Schema.typeSchema(PageHit),
  {
    strict: true,
    decode: ({ matched, position, titleMatched, ...document }) => ({ document, matched, titleMatched, position }),
    encode: ({ document, matched, position, titleMatched }) => ({ ...document, matched, titleMatched, position })
  }
) satisfies { readonly Type: PageHit }
const decodePageHit = Schema.decodeUnknown(PageHitRow)

/** A row of `pages`: the total, then one row per page shown (nulls when none is), with its PageHitRow. */
const PagesRow = Schema.Struct({ total: Schema.Number, page_id: Schema.NullOr(PageId) })

/** A row of `spaces`: the total, then one row per page shown (nulls when no space is), with its PageHitRow. */
const SpaceRow = Schema.Struct({
  total: Schema.Number,
  space_id: Schema.NullOr(SpaceId),
  rank: Schema.NullOr(Schema.Number),
  page_id: Schema.NullOr(PageId)
})

/** A term as tsquery text: the lexeme quoted, `:*` for a prefix. Lexemes hold no quote; doubling one keeps it literal. */
const tsqueryOf = (term: SearchTerm): string => `'${term.lexeme.replace(/'/g, "''")}'${term.prefix ? ":*" : ""}`

const pageKeyset = (hit: PageHit) => [pageKeyOf(hit), hit.document.pageId] as const

const noHits = <A>(): Page<A> => ({ items: [], count: 0, next: Option.none() })

/** The last upsert of each page wins, as when the documents are applied one after another. */
const lastOfEachPage = (
  documents: ReadonlyArray<SearchDocument>
): ReadonlyArray<SearchDocument> => [...new Map(documents.map((d) => [d.pageId, d] as const)).values()]

export const SearchIndexLive = Layer.effect(
  SearchIndex,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Matching documents `d` of the spaces, with `m.matched`, `m.title_matched` and `r.rank` (rankOf):
     * the GIN index finds the documents matching any term, then each one counts its terms once.
     */
    const matching = (spaceIds: ReadonlyArray<SpaceId>, terms: ReadonlyArray<SearchTerm>) => {
      const queries = terms.map(tsqueryOf)
      const max = sql.literal(String(MAX_TERMS))
      const perMatch = sql.literal(String(MAX_TERMS + 1))
      return {
        from: sql`FROM search_documents d
          CROSS JOIN LATERAL (SELECT count(*) FILTER (WHERE d.lexemes @@ q.term)::int AS matched,
              count(*) FILTER (WHERE d.title_lexemes @@ q.term)::int AS title_matched
            FROM unnest(${queries}::tsquery[]) AS q (term)) m
          CROSS JOIN LATERAL (SELECT (${max} - m.matched) * ${perMatch} + (${max} - m.title_matched) AS rank) r`,
        where: [
          sql`d.space_id = ANY(${spaceIds}::text[])`,
          sql`d.lexemes @@ ${queries.join(" | ")}::tsquery`
        ]
      }
    }

    const indexedRevision = findOne(
      SpaceId,
      Schema.Struct({ revision_id: RevisionId }),
      (spaceId) => sql`SELECT revision_id FROM search_spaces WHERE space_id = ${spaceId}`
    )
    const staleSpaces = findAll(
      Schema.Number,
      Schema.Struct({ id: SpaceId }),
      (limit) =>
        sql`SELECT s.id FROM spaces s LEFT JOIN search_spaces x ON x.space_id = s.id
        WHERE s.deleted_at IS NULL AND (x.revision_id IS NULL OR x.revision_id <> s.revision_id)
        ORDER BY s.id LIMIT ${limit}`
    )

    // pageKeyOf: the rank as three digits, a space, the path; "C" so that it sorts as JavaScript's `<`.
    const pageKey = sql`CROSS JOIN LATERAL (SELECT (lpad(r.rank::text, 3, '0') || ' ' || d.path) COLLATE "C" AS page_key) k`

    return SearchIndex.of({
      update: (spaceId, documents, removed) =>
        sql.withTransaction(Effect.gen(function*() {
          // Removals first, then upserts: a page both removed and given a document keeps the document.
          if (removed.length > 0) {
            yield* sql`DELETE FROM search_documents WHERE space_id = ${spaceId} AND page_id = ANY(${removed}::text[])`
          }
          yield* Effect.forEach(
            Arr.chunksOf(lastOfEachPage(documents), INSERT_CHUNK),
            (chunk) =>
              sql`INSERT INTO search_documents (space_id, page_id, title, description, path, ancestors, sections, title_lexemes, lexemes)
              VALUES ${
                sql.csv(chunk.map((d) =>
                  sql`(${spaceId}, ${d.pageId}, ${d.title}, ${d.description}, ${d.path},
                  ${encodeAncestors(d.ancestors)}::jsonb, ${encodeSections(d.sections)}::jsonb,
                  array_to_tsvector(${d.titleLexemes}::text[]), array_to_tsvector(${d.lexemes}::text[]))`
                ))
              }
              ON CONFLICT (space_id, page_id) DO UPDATE SET title = excluded.title, description = excluded.description,
                path = excluded.path, ancestors = excluded.ancestors, sections = excluded.sections, title_lexemes = excluded.title_lexemes, lexemes = excluded.lexemes`,
            { discard: true }
          )
        })).pipe(Effect.orDie),
      indexedRevision: (spaceId) => Effect.map(indexedRevision(spaceId), Option.map((row) => row.revision_id)),
      markIndexed: (spaceId, revisionId) =>
        sql`INSERT INTO search_spaces (space_id, revision_id) VALUES (${spaceId}, ${revisionId})
          ON CONFLICT (space_id) DO UPDATE SET revision_id = excluded.revision_id`.pipe(Effect.asVoid, Effect.orDie),
      staleSpaces: (limit) => Effect.map(staleSpaces(limit), (rows) => rows.map((row) => row.id)),
      removeSpace: (spaceId) =>
        sql.withTransaction(Effect.all([
          sql`DELETE FROM search_documents WHERE space_id = ${spaceId}`,
          sql`DELETE FROM search_spaces WHERE space_id = ${spaceId}`
        ])).pipe(Effect.asVoid, Effect.orDie),
      pages: (spaceIds, terms, page) => {
        if (spaceIds.length === 0 || terms.length === 0) return Effect.succeed(noHits<PageHit>())
        const { from, where } = matching(spaceIds, terms)
        const after = afterKeyset(sql, { value: "r.page_key", id: "r.page_id", orderKey: true }, "asc", page.after)
        // Every match is numbered (its position) on the narrow columns; only the pages shown are read whole.
        return sql`WITH ranked AS (
            SELECT d.space_id, d.page_id, m.matched, m.title_matched, k.page_key,
              row_number() OVER (ORDER BY k.page_key, d.page_id)::int AS position
            ${from} ${pageKey} WHERE ${sql.and(where)}),
          shown AS (SELECT * FROM ranked r WHERE ${after} ORDER BY r.page_key, r.page_id LIMIT ${page.limit + 1})
          SELECT t.total, doc.space_id, doc.page_id, doc.title, doc.description, doc.path, doc.ancestors, doc.sections,
            tsvector_to_array(doc.title_lexemes) AS title_lexemes, tsvector_to_array(doc.lexemes) AS lexemes,
            shown.matched, shown.title_matched, shown.position
          FROM (SELECT count(*)::int AS total FROM ranked) t
            LEFT JOIN shown ON TRUE
            LEFT JOIN search_documents doc ON doc.space_id = shown.space_id AND doc.page_id = shown.page_id
          ORDER BY shown.page_key, shown.page_id`.pipe(
          Effect.flatMap((rows) =>
            Effect.gen(function*() {
              const hits: Array<PageHit> = []
              let total = 0
              for (const found of rows) {
                const row = yield* Schema.decodeUnknown(PagesRow)(found)
                total = row.total
                if (row.page_id !== null) hits.push(yield* decodePageHit(found))
              }
              const items = hits.slice(0, page.limit)
              const last = items[items.length - 1]
              return {
                items,
                count: total,
                next: hits.length > page.limit && last !== undefined ? Option.some(pageKeyset(last)) : Option.none()
              } satisfies Page<PageHit>
            })
          ),
          Effect.orDie
        )
      },
      spaces: (spaceIds, terms, perSpace, page) => {
        if (spaceIds.length === 0 || terms.length === 0) return Effect.succeed(noHits<SpaceHit>())
        const { from, where } = matching(spaceIds, terms)
        // Whatever number a page token holds compares as JavaScript would (see `afterKeyset`).
        const after = afterKeyset(sql, { value: "s.rank", id: "s.space_id" }, "asc", page.after)
        // One pass over the matching documents: each is ranked once, on the narrow columns; spaces
        // take their best rank and are counted and paged; only the pages shown are read whole.
        return sql`WITH ranked AS (
            SELECT d.space_id, d.page_id, m.matched, m.title_matched, r.rank, k.page_key,
              row_number() OVER (PARTITION BY d.space_id ORDER BY k.page_key, d.page_id) AS n,
              row_number() OVER (ORDER BY k.page_key, d.page_id)::int AS position
            ${from} ${pageKey} WHERE ${sql.and(where)}),
          found AS (SELECT space_id, min(rank)::int AS rank FROM ranked GROUP BY space_id),
          shown AS (SELECT s.space_id, s.rank FROM found s WHERE ${after} ORDER BY s.rank, s.space_id LIMIT ${page.limit + 1})
          SELECT t.total, shown.space_id, shown.rank, doc.page_id, doc.title, doc.description, doc.path, doc.ancestors,
            doc.sections, tsvector_to_array(doc.title_lexemes) AS title_lexemes, tsvector_to_array(doc.lexemes) AS lexemes,
            ranked.matched, ranked.title_matched, ranked.position
          FROM (SELECT count(*)::int AS total FROM found) t
            LEFT JOIN shown ON TRUE
            LEFT JOIN ranked ON ranked.space_id = shown.space_id AND ranked.n <= ${perSpace}
            LEFT JOIN search_documents doc ON doc.space_id = ranked.space_id AND doc.page_id = ranked.page_id
          ORDER BY shown.rank, shown.space_id, ranked.page_key, ranked.page_id`.pipe(
          Effect.flatMap((rows) =>
            Effect.gen(function*() {
              const hits: Array<{ readonly spaceId: SpaceId; readonly rank: number; readonly pages: Array<PageHit> }> = []
              let total = 0
              for (const found of rows) {
                const row = yield* Schema.decodeUnknown(SpaceRow)(found)
                total = row.total
                if (row.space_id === null || row.rank === null) continue
                let hit = hits[hits.length - 1]
                if (hit?.spaceId !== row.space_id) {
                  hit = { spaceId: row.space_id, rank: row.rank, pages: [] }
                  hits.push(hit)
                }
                if (row.page_id !== null) hit.pages.push(yield* decodePageHit(found))
              }
              const items = hits.slice(0, page.limit)
              const last = items[items.length - 1]
              return {
                items,
                count: total,
                next: hits.length > page.limit && last !== undefined ? Option.some([last.rank, last.spaceId] as const) : Option.none()
              } satisfies Page<SpaceHit>
            })
          ),
          Effect.orDie
        )
      }
    })
  })
)
