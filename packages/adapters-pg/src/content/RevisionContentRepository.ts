import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  ContentPage,
  File,
  PageId,
  type RevisionContent,
  RevisionContentRepository,
  RevisionId
} from "@octavo/domain"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { documentOf, findOne, single } from "../shared/Rows.js"

/**
 * How many revisions a chain of deltas may hold before a revision is stored in full. Each revision
 * stores only its delta (k rows), except that every SNAPSHOT_INTERVAL-th revision since the last
 * snapshot copies the whole content (N rows): k + N / SNAPSHOT_INTERVAL rows per revision amortized,
 * e.g. 1 + 5 for one changed page of a 5,000-page space. In exchange a load reads at most
 * SNAPSHOT_INTERVAL revisions' entries: N + (SNAPSHOT_INTERVAL - 1) * k rows.
 */
export const SNAPSHOT_INTERVAL = 1000

/**
 * Rows per INSERT: well below Postgres's 65,535 parameters per statement, and few enough that embedded PGlite, which
 * runs a statement without a turn of the event loop, holds it tens of milliseconds, not hundreds (issue 38).
 */
const INSERT_CHUNK = 200

/** A page as its jsonb document holds it: dates in epoch milliseconds, absent fields left out. */
const StoredPage = documentOf(ContentPage)
const StoredFile = documentOf(File)
const encodePage = Schema.encodeSync(StoredPage)
const encodeFile = Schema.encodeSync(StoredFile)

/** A revision's live pages and files, each kind a JSON array of its entries. */
const Content = Schema.Struct({ pages: Schema.Array(StoredPage), files: Schema.Array(StoredFile) })
/** The nearest revision's entry for one page: NULL when that revision deletes it. */
const NearestPage = Schema.Struct({ entry: Schema.OptionFromNullOr(StoredPage) })

/** Where one kind of entry (pages or files) is stored. */
interface EntryTable {
  /** e.g. "revision_pages" */
  readonly table: string
  /** e.g. "page_id" */
  readonly id: string
  /** e.g. "page" */
  readonly value: string
}

const pagesTable: EntryTable = { table: "revision_pages", id: "page_id", value: "page" }
const filesTable: EntryTable = { table: "revision_files", id: "file_id", value: "file" }

/**
 * A delta's entries by id, NULL for a deletion. Applied in the domain's order: upserts, then
 * deletions, so an entry both upserted and deleted is deleted, and of two upserts the last wins.
 */
const entriesOf = <Id extends string, A>(
  upserted: ReadonlyArray<A>,
  deleted: ReadonlyArray<Id>,
  idOf: (a: A) => Id
): ReadonlyMap<Id, A | null> => {
  const entries = new Map<Id, A | null>()
  for (const a of upserted) entries.set(idOf(a), a)
  for (const id of deleted) entries.set(id, null)
  return entries
}

/** The Layer, with the snapshot interval as a parameter so that tests can exercise short chains. */
export const makeRevisionContentRepositoryLive = (snapshotInterval: number) =>
  Layer.effect(
    RevisionContentRepository,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      /**
       * `chain`: the revision and its ancestors down to the nearest snapshot or root, `step` 0 for the
       * revision itself; empty for a revision with no stored content.
       */
      const withChain = (revisionId: string): Fragment =>
        sql`WITH RECURSIVE chain (revision_id, parent_id, is_snapshot, step) AS (
            SELECT revision_id, parent_id, is_snapshot, 0 FROM revision_contents WHERE revision_id = ${revisionId}
            UNION ALL
            SELECT c.revision_id, c.parent_id, c.is_snapshot, chain.step + 1
            FROM chain JOIN revision_contents c ON c.revision_id = chain.parent_id
            WHERE NOT chain.is_snapshot
          )`

      /** Per id, the entry of the nearest revision of the chain; deleted entries included (NULL). */
      const latestEntries = (entries: EntryTable): Fragment =>
        sql`SELECT DISTINCT ON (e.${sql.literal(entries.id)}) e.${sql.literal(entries.id)} AS id,
            e.${sql.literal(entries.value)} AS entry
          FROM chain JOIN ${sql.literal(entries.table)} e ON e.revision_id = chain.revision_id
          ORDER BY e.${sql.literal(entries.id)}, chain.step`

      /** "table (revision_id, id column, value column)" */
      const into = (entries: EntryTable): Fragment => sql.literal(`${entries.table} (revision_id, ${entries.id}, ${entries.value})`)

      /** A revision's pages and files in one statement: each kind's live entries as a JSON array. */
      const loadContent = single(RevisionId, Content, (revisionId) =>
        sql`${withChain(revisionId)}
          SELECT
            coalesce((SELECT json_agg(entry) FROM (${latestEntries(pagesTable)}) latest WHERE entry IS NOT NULL), '[]'::json) AS pages,
            coalesce((SELECT json_agg(entry) FROM (${latestEntries(filesTable)}) latest WHERE entry IS NOT NULL), '[]'::json) AS files`)
      /** The entry of the nearest revision of the chain for the page `pageId` (an SQL expression) names. */
      const nearestPage = (pageId: Fragment): Fragment =>
        sql`SELECT p.page AS entry FROM chain
          JOIN revision_pages p ON p.revision_id = chain.revision_id AND p.page_id = ${pageId}
          ORDER BY chain.step LIMIT 1`
      const loadPage = findOne(Schema.Tuple(RevisionId, PageId), NearestPage, ([revisionId, pageId]) =>
        sql`${withChain(revisionId)} ${nearestPage(sql`${pageId}`)}`)
      /**
       * A page's branch: `above` walks up from the page through its parents, `below` down through the
       * pages whose live entry names a page of the branch as parent. A child is found through the
       * parent index among the chain's entries, then kept when its nearest entry still names that
       * parent. UNION, not UNION ALL: a walk stops rather than loops should the tree ever hold a cycle.
       */
      const loadBranch = single(
        Schema.Tuple(RevisionId, PageId),
        Schema.Struct({ pages: Schema.Array(StoredPage) }),
        ([revisionId, pageId]) =>
          sql`${withChain(revisionId)},
          above (id, entry) AS (
            SELECT ${pageId}::text COLLATE "C", nearest.entry FROM (${nearestPage(sql`${pageId}`)}) nearest
            WHERE nearest.entry IS NOT NULL
            UNION
            SELECT (above.entry->>'parentId') COLLATE "C", nearest.entry FROM above
            CROSS JOIN LATERAL (${nearestPage(sql`(above.entry->>'parentId') COLLATE "C"`)}) nearest
            WHERE nearest.entry IS NOT NULL
          ),
          below (id, entry) AS (
            SELECT id, entry FROM above WHERE id = ${pageId}
            UNION
            SELECT child.page_id, nearest.entry FROM below
            CROSS JOIN LATERAL (
              SELECT DISTINCT e.page_id FROM chain JOIN revision_pages e ON e.revision_id = chain.revision_id
              WHERE (e.page->>'parentId') COLLATE "C" = below.id
            ) child
            CROSS JOIN LATERAL (${nearestPage(sql`child.page_id`)}) nearest
            WHERE (nearest.entry->>'parentId') COLLATE "C" = below.id
          )
          SELECT coalesce(
            (SELECT json_agg(entry) FROM (SELECT entry FROM above UNION ALL SELECT entry FROM below WHERE id <> ${pageId}) branch),
            '[]'::json
          ) AS pages`
      )
      const parentDepth = findOne(
        RevisionId,
        Schema.Struct({ depth: Schema.Number }),
        (parentId) =>
          sql`SELECT depth FROM revision_contents WHERE revision_id = ${parentId}`
      )

      /** Entries encoded by `store` a chunk at a time, so that a delta of thousands waits its turns between statements. */
      const insertEntries = <Id extends string, A, Stored>(
        revisionId: RevisionId,
        entries: EntryTable,
        rows: ReadonlyArray<readonly [Id, A | null]>,
        store: (a: A) => Stored
      ) =>
        Effect.forEach(Arr.chunksOf(rows, INSERT_CHUNK), (chunk) =>
          sql`INSERT INTO ${into(entries)} VALUES ${
            sql.csv(chunk.map(([id, entry]) =>
              sql`(${revisionId}, ${id}, ${entry === null ? null : JSON.stringify(store(entry))}::jsonb)`
            ))
          }`, { discard: true })

      /** A snapshot's copy of its parent's live entries, but for those its delta changes. */
      const copyUnchanged = (
        revisionId: RevisionId,
        parentId: RevisionId,
        entries: EntryTable,
        changed: ReadonlyArray<string>
      ) =>
        sql`${withChain(parentId)}
          INSERT INTO ${into(entries)}
          SELECT ${revisionId}::text, id, entry FROM (${latestEntries(entries)}) latest
          WHERE entry IS NOT NULL AND id <> ALL (${changed}::text[])`

      return RevisionContentRepository.of({
        save: (revisionId, spaceId, parentId, delta) =>
          sql.withTransaction(Effect.gen(function*() {
            const pages = entriesOf(delta.pages, delta.deletedPages, (p) =>
              p.id)
            const files = entriesOf(delta.files, delta.deletedFiles, (f) =>
              f.id)
            // A parent with no stored content is empty: the revision starts a chain of its own.
            const parent = parentId === null ? undefined : Option.getOrUndefined(yield* parentDepth(parentId))
            const depth = parent === undefined ? 0 : parent.depth + 1
            const isSnapshot = parent === undefined || depth >= snapshotInterval
            yield* sql`INSERT INTO revision_contents (revision_id, space_id, parent_id, depth, is_snapshot)
              VALUES (${revisionId}, ${spaceId}, ${parentId}, ${isSnapshot ? 0 : depth}, ${isSnapshot})`
            if (isSnapshot && parent !== undefined && parentId !== null) {
              yield* copyUnchanged(revisionId, parentId, pagesTable, [...pages.keys()])
              yield* copyUnchanged(revisionId, parentId, filesTable, [...files.keys()])
            }
            // A snapshot holds no deletions: nothing below it is read.
            const kept = <Id, A>(entries: ReadonlyMap<Id, A | null>) =>
              Array.from(entries).filter(([, entry]) =>
                !isSnapshot || entry !== null
              )
            yield* insertEntries(revisionId, pagesTable, kept(pages), encodePage)
            yield* insertEntries(revisionId, filesTable, kept(files), encodeFile)
          })).pipe(Effect.orDie),
        load: (revisionId) =>
          Effect.gen(function*() {
            const { files, pages } = yield* loadContent(revisionId)
            const content: RevisionContent = {
              pages: new Map(pages.map((entry) => [entry.id, entry] as const)),
              files: new Map(files.map((entry) => [entry.id, entry] as const))
            }
            return content
          }),
        loadPage: (revisionId, pageId) => Effect.map(loadPage([revisionId, pageId]), Option.flatMap(({ entry }) => entry)),
        loadBranch: (revisionId, pageId) => Effect.map(loadBranch([revisionId, pageId]), ({ pages }) => pages)
      })
    })
  )

export const RevisionContentRepositoryLive = makeRevisionContentRepositoryLive(SNAPSHOT_INTERVAL)
