import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  type ContentPage,
  type File,
  type FileId,
  type PageId,
  type PageKind,
  type PageLayout,
  type RevisionContent,
  RevisionContentRepository,
  type RevisionId
} from "@octavo/domain"
import { Array as Arr, Effect, Layer, Option } from "effect"

/**
 * How many revisions a chain of deltas may hold before a revision is stored in full. Each revision
 * stores only its delta (k rows), except that every SNAPSHOT_INTERVAL-th revision since the last
 * snapshot copies the whole content (N rows): k + N / SNAPSHOT_INTERVAL rows per revision amortized,
 * e.g. 1 + 5 for one changed page of a 5,000-page space. In exchange a load reads at most
 * SNAPSHOT_INTERVAL revisions' entries: N + (SNAPSHOT_INTERVAL - 1) * k rows.
 */
export const SNAPSHOT_INTERVAL = 1000

/** Rows per INSERT, well below Postgres's 65,535 parameters per statement. */
const INSERT_CHUNK = 1_000

interface StoredGit {
  readonly oid: string
  readonly path: string
}

/** A page as its jsonb document holds it: dates in epoch milliseconds, absent fields left out. */
interface StoredPage {
  readonly id: PageId
  readonly kind: PageKind
  readonly title: string
  readonly slug: string
  readonly parentId: PageId | null
  readonly position: string
  readonly markdown: string
  readonly emoji?: string
  readonly icon?: string
  readonly description?: string
  readonly href?: string
  readonly hidden: boolean
  readonly noIndex: boolean
  readonly noRobotsIndex: boolean
  readonly layout?: PageLayout
  readonly cover?: { readonly file: string; readonly yPos?: number }
  readonly git?: StoredGit
  readonly createdAt: number
  readonly updatedAt: number
}

interface StoredFile {
  readonly id: FileId
  readonly name: string
  readonly contentType: string
  readonly size: number
  readonly dimensions?: { readonly width: number; readonly height: number }
  readonly blobKey: string
  readonly git?: StoredGit
  readonly createdAt: number
}

const copyGit = (git: StoredGit): StoredGit => ({ oid: git.oid, path: git.path })

const copyLayout = (layout: PageLayout): PageLayout => ({
  ...(layout.cover === undefined ? {} : { cover: layout.cover }),
  ...(layout.title === undefined ? {} : { title: layout.title }),
  ...(layout.description === undefined ? {} : { description: layout.description }),
  ...(layout.tableOfContents === undefined ? {} : { tableOfContents: layout.tableOfContents }),
  ...(layout.outline === undefined ? {} : { outline: layout.outline }),
  ...(layout.pagination === undefined ? {} : { pagination: layout.pagination }),
  ...(layout.coverSize === undefined ? {} : { coverSize: layout.coverSize })
})

// Decoding and encoding copy the same fields: a stored document reads back as the value saved.
const toStoredPage = (page: ContentPage): StoredPage => ({
  id: page.id,
  kind: page.kind,
  title: page.title,
  slug: page.slug,
  parentId: page.parentId,
  position: page.position,
  markdown: page.markdown,
  ...(page.emoji === undefined ? {} : { emoji: page.emoji }),
  ...(page.icon === undefined ? {} : { icon: page.icon }),
  ...(page.description === undefined ? {} : { description: page.description }),
  ...(page.href === undefined ? {} : { href: page.href }),
  hidden: page.hidden,
  noIndex: page.noIndex,
  noRobotsIndex: page.noRobotsIndex,
  ...(page.layout === undefined ? {} : { layout: copyLayout(page.layout) }),
  ...(page.cover === undefined ? {} : {
    cover: { file: page.cover.file, ...(page.cover.yPos === undefined ? {} : { yPos: page.cover.yPos }) }
  }),
  ...(page.git === undefined ? {} : { git: copyGit(page.git) }),
  createdAt: page.createdAt.getTime(),
  updatedAt: page.updatedAt.getTime()
})

const toPage = (stored: StoredPage): ContentPage => ({
  id: stored.id,
  kind: stored.kind,
  title: stored.title,
  slug: stored.slug,
  parentId: stored.parentId,
  position: stored.position,
  markdown: stored.markdown,
  ...(stored.emoji === undefined ? {} : { emoji: stored.emoji }),
  ...(stored.icon === undefined ? {} : { icon: stored.icon }),
  ...(stored.description === undefined ? {} : { description: stored.description }),
  ...(stored.href === undefined ? {} : { href: stored.href }),
  hidden: stored.hidden,
  noIndex: stored.noIndex,
  noRobotsIndex: stored.noRobotsIndex,
  ...(stored.layout === undefined ? {} : { layout: copyLayout(stored.layout) }),
  ...(stored.cover === undefined ? {} : {
    cover: { file: stored.cover.file, ...(stored.cover.yPos === undefined ? {} : { yPos: stored.cover.yPos }) }
  }),
  ...(stored.git === undefined ? {} : { git: copyGit(stored.git) }),
  createdAt: new Date(stored.createdAt),
  updatedAt: new Date(stored.updatedAt)
})

const toStoredFile = (file: File): StoredFile => ({
  id: file.id,
  name: file.name,
  contentType: file.contentType,
  size: file.size,
  ...(file.dimensions === undefined ? {} : {
    dimensions: { width: file.dimensions.width, height: file.dimensions.height }
  }),
  blobKey: file.blobKey,
  ...(file.git === undefined ? {} : { git: copyGit(file.git) }),
  createdAt: file.createdAt.getTime()
})

const toFile = (stored: StoredFile): File => ({
  id: stored.id,
  name: stored.name,
  contentType: stored.contentType,
  size: stored.size,
  ...(stored.dimensions === undefined ? {} : {
    dimensions: { width: stored.dimensions.width, height: stored.dimensions.height }
  }),
  blobKey: stored.blobKey,
  ...(stored.git === undefined ? {} : { git: copyGit(stored.git) }),
  createdAt: new Date(stored.createdAt)
})

interface ParentRow {
  readonly depth: number
}

interface EntryRow<Stored> {
  readonly entry: Stored | null
}

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
const entriesOf = <Id extends string, A, Stored>(
  upserted: ReadonlyArray<A>,
  deleted: ReadonlyArray<Id>,
  idOf: (a: A) => Id,
  store: (a: A) => Stored
): ReadonlyMap<Id, Stored | null> => {
  const entries = new Map<Id, Stored | null>()
  for (const a of upserted) entries.set(idOf(a), store(a))
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
      const withChain = (revisionId: RevisionId): Fragment =>
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
      const into = (entries: EntryTable): Fragment =>
        sql.literal(`${entries.table} (revision_id, ${entries.id}, ${entries.value})`)

      const loadEntries = <Stored>(revisionId: RevisionId, entries: EntryTable) =>
        sql<EntryRow<Stored>>`${withChain(revisionId)}
          SELECT entry FROM (${latestEntries(entries)}) latest WHERE entry IS NOT NULL`

      const insertEntries = <Id extends string, Stored>(
        revisionId: RevisionId,
        entries: EntryTable,
        rows: ReadonlyArray<readonly [Id, Stored | null]>
      ) =>
        Effect.forEach(Arr.chunksOf(rows, INSERT_CHUNK), (chunk) =>
          sql`INSERT INTO ${into(entries)} VALUES ${
            sql.csv(chunk.map(([id, entry]) =>
              sql`(${revisionId}, ${id}, ${entry === null ? null : JSON.stringify(entry)}::jsonb)`
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
            const pages = entriesOf(delta.pages, delta.deletedPages, (p) => p.id, toStoredPage)
            const files = entriesOf(delta.files, delta.deletedFiles, (f) => f.id, toStoredFile)
            // A parent with no stored content is empty: the revision starts a chain of its own.
            const parent = parentId === null
              ? undefined
              : (yield* sql<ParentRow>`SELECT depth FROM revision_contents WHERE revision_id = ${parentId}`)[0]
            const depth = parent === undefined ? 0 : parent.depth + 1
            const isSnapshot = parent === undefined || depth >= snapshotInterval
            yield* sql`INSERT INTO revision_contents (revision_id, space_id, parent_id, depth, is_snapshot)
              VALUES (${revisionId}, ${spaceId}, ${parentId}, ${isSnapshot ? 0 : depth}, ${isSnapshot})`
            if (isSnapshot && parent !== undefined && parentId !== null) {
              yield* copyUnchanged(revisionId, parentId, pagesTable, [...pages.keys()])
              yield* copyUnchanged(revisionId, parentId, filesTable, [...files.keys()])
            }
            // A snapshot holds no deletions: nothing below it is read.
            const kept = <Id, Stored>(entries: ReadonlyMap<Id, Stored | null>) =>
              Array.from(entries).filter(([, entry]) => !isSnapshot || entry !== null)
            yield* insertEntries(revisionId, pagesTable, kept(pages))
            yield* insertEntries(revisionId, filesTable, kept(files))
          })).pipe(Effect.orDie),
        load: (revisionId) =>
          Effect.gen(function*() {
            const pages = yield* loadEntries<StoredPage>(revisionId, pagesTable)
            const files = yield* loadEntries<StoredFile>(revisionId, filesTable)
            const content: RevisionContent = {
              pages: new Map(pages.flatMap(({ entry }) => entry === null ? [] : [[entry.id, toPage(entry)] as const])),
              files: new Map(files.flatMap(({ entry }) => entry === null ? [] : [[entry.id, toFile(entry)] as const]))
            }
            return content
          }).pipe(Effect.orDie),
        loadPage: (revisionId, pageId) =>
          sql<EntryRow<StoredPage>>`${withChain(revisionId)}
            SELECT p.page AS entry FROM chain
            JOIN revision_pages p ON p.revision_id = chain.revision_id AND p.page_id = ${pageId}
            ORDER BY chain.step LIMIT 1`.pipe(
            Effect.map((rows) => Option.map(Option.fromNullable(rows[0]?.entry), toPage)),
            Effect.orDie
          )
      })
    })
  )

export const RevisionContentRepositoryLive = makeRevisionContentRepositoryLive(SNAPSHOT_INTERVAL)
