import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import {
  BlobStore,
  branchOf,
  type ContentDelta,
  type ContentPage,
  emptyContent,
  type File,
  type PageLayout,
  type RevisionContent,
  RevisionContentRepository,
  type RevisionId,
  UnitOfWork
} from "@octavo/domain"
import { Effect, Either, Layer, Option } from "effect"
import { MigrationsLive, PgStorage } from "../src/PgStorage.js"
import { makeRevisionContentRepositoryLive, SNAPSHOT_INTERVAL } from "../src/content/index.js"
import * as F from "./fixtures.js"
import { sqlClients } from "./helpers.js"

const delta = (fields: Partial<ContentDelta> = {}): ContentDelta => ({
  pages: [],
  deletedPages: [],
  files: [],
  deletedFiles: [],
  ...fields
})

/** Pages in the order of their ids, for comparing sets of pages. */
const byId = (pages: ReadonlyArray<ContentPage>) => [...pages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

const contentOf = (pages: ReadonlyArray<ContentPage>, files: ReadonlyArray<File> = []): RevisionContent => ({
  pages: new Map(pages.map((p) => [p.id, p])),
  files: new Map(files.map((f) => [f.id, f]))
})

/** The port's definition of a revision's content, computed in memory: upserts, then deletions. */
const applyDelta = (parent: RevisionContent, change: ContentDelta): RevisionContent => {
  const pages = new Map(parent.pages)
  for (const p of change.pages) pages.set(p.id, p)
  for (const id of change.deletedPages) pages.delete(id)
  const files = new Map(parent.files)
  for (const f of change.files) files.set(f.id, f)
  for (const id of change.deletedFiles) files.delete(id)
  return { pages, files }
}

/** How many rows `table` holds for the revisions whose ids start with `prefix`. */
const storedRows = (table: "revision_contents" | "revision_pages" | "revision_files", prefix: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly count: number }>`SELECT count(*)::int AS count FROM ${sql.literal(table)}
      WHERE starts_with(revision_id, ${prefix})`).pipe(Effect.map((rows) => rows[0]?.count ?? -1), Effect.orDie)

interface ChainRow {
  readonly revision_id: string
  readonly depth: number
  readonly is_snapshot: boolean
}

const chainRows = (prefix: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<ChainRow>`SELECT revision_id, depth, is_snapshot FROM revision_contents
      WHERE starts_with(revision_id, ${prefix}) ORDER BY revision_id`).pipe(Effect.orDie)

/**
 * A page whose optional fields are present or absent at random, some nested ones too; its parent
 * one of `parents` or none.
 */
const randomPage = (next: () => number, id: string, version: number, parents: ReadonlyArray<string>): ContentPage => {
  const flag = () => next() < 0.5
  const layoutKeys = ["cover", "title", "description", "tableOfContents", "outline", "pagination"] as const
  const layout: { -readonly [K in keyof PageLayout]: PageLayout[K] } = {}
  for (const key of layoutKeys) if (next() < 0.4) layout[key] = flag()
  if (next() < 0.3) layout.coverSize = F.pick(next, ["hero", "full"])
  return F.page(id, {
    kind: F.pick(next, ["document", "group", "link"] as const),
    title: F.pick(next, ["Ünïcode \"quoted\" \\ title", "Plain", "日本語 🎉", ""]) + ` v${version}`,
    slug: `slug-${version}`,
    parentId: parents.length === 0 || next() < 0.3 ? null : F.pageId(F.pick(next, parents)),
    position: F.pick(next, ["V", "Vz", "a0", "Z"]),
    markdown: F.pick(next, ["", "# Title\n\nBody with `code` and \u00e9", "line\r\nbreaks\ttabs"]),
    ...(flag() ? { emoji: "📘" } : {}),
    ...(flag() ? { icon: "book" } : {}),
    ...(flag() ? { description: `About ${id}` } : {}),
    ...(flag() ? { href: "https://example.com/?q=a&b=c" } : {}),
    hidden: flag(),
    noIndex: flag(),
    noRobotsIndex: flag(),
    ...(flag() ? { layout } : {}),
    ...(flag() ? { cover: flag() ? { file: "cover-file" } : { file: "cover-file", yPos: 0.1 + 0.2 } } : {}),
    ...(flag() ? { git: { oid: `oid-${version}`, path: `${id}.md` } } : {}),
    createdAt: new Date(1_600_000_000_000 + Math.floor(next() * 1e9)),
    updatedAt: new Date(1_700_000_000_000 + version)
  })
}

const randomFile = (next: () => number, id: string, version: number): File =>
  F.file(id, {
    name: `${id} v${version}.png`,
    size: Math.floor(next() * 10_000_000),
    ...(next() < 0.5 ? { dimensions: { width: 1 + version, height: 0.5 } } : {}),
    blobKey: `sha-${version}`,
    ...(next() < 0.3 ? { git: { oid: "o", path: "p" } } : {}),
    createdAt: new Date(version)
  })

/**
 * Random deltas over a few page and file ids, each revision on the latest one, an older one (a
 * branch) or none (a new root); every revision then loads as the reference computed in memory.
 */
const randomHistory = (prefix: string, seed: number, revisionCount: number) =>
  Effect.gen(function*() {
    const contents = yield* RevisionContentRepository
    const next = F.random(seed)
    // Ids that differ in case only, and ones that sort differently in "C" and natural-language order.
    const pageIds = ["A", "a", "B", "b", "a-1", "a_1", "Z9", "z"].map((id) => F.pageId(`${prefix}${id}`))
    const fileIds = ["F", "f", "g"].map((id) => F.fileId(`${prefix}${id}`))
    const reference = new Map<RevisionId, RevisionContent>()
    const revisions: Array<RevisionId> = []
    for (let i = 0; i < revisionCount; i++) {
      const revisionId = F.revisionId(`${prefix}r${String(i).padStart(3, "0")}`)
      const latest = revisions[revisions.length - 1]
      const parentId = latest === undefined || next() < 0.05 ? null : next() < 0.8 ? latest : F.pick(next, revisions)
      const parent = parentId === null ? emptyContent : reference.get(parentId) ?? emptyContent
      // Deletions may name pages that are absent or upserted by the same delta; upserts may repeat an id.
      const change = delta({
        // A page's parent comes before it in pageIds, so that the pages form a forest, as the domain keeps them.
        pages: Array.from({ length: Math.floor(next() * 4) }, () => {
          const at = Math.floor(next() * pageIds.length)
          return randomPage(next, pageIds[at]!, i, pageIds.slice(0, at))
        }),
        deletedPages: Array.from({ length: Math.floor(next() * 3) }, () => F.pick(next, pageIds)),
        files: Array.from({ length: Math.floor(next() * 2) }, () => randomFile(next, F.pick(next, fileIds), i)),
        deletedFiles: next() < 0.3 ? [F.pick(next, fileIds)] : []
      })
      yield* contents.save(revisionId, F.spaceId(`${prefix}space`), parentId, change)
      reference.set(revisionId, applyDelta(parent, change))
      revisions.push(revisionId)
    }
    let nonEmpty = 0
    let deepBranches = 0
    for (const revisionId of revisions) {
      const expected = reference.get(revisionId)!
      expect(yield* contents.load(revisionId)).toEqual(expected)
      for (const pageId of pageIds) {
        expect(yield* contents.loadPage(revisionId, pageId)).toEqual(Option.fromNullable(expected.pages.get(pageId)))
        expect(byId(yield* contents.loadBranch(revisionId, pageId))).toEqual(byId(branchOf(expected, pageId)))
        if (branchOf(expected, pageId).length > 2) deepBranches++
      }
      if (expected.pages.size > 0 && expected.files.size > 0) nonEmpty++
    }
    // The sequence is not trivially empty.
    expect(nonEmpty).toBeGreaterThan(revisionCount / 2)
    expect(deepBranches).toBeGreaterThan(revisionCount / 2)
  })

const suite = (name: string, makeClient: () => Layer.Layer<SqlClient.SqlClient>) => {
  layer(PgStorage.pipe(Layer.provideMerge(makeClient())), { timeout: "120 seconds" })(name, (it) => {
    describe("revision content", () => {
      it.effect("is the parent's content with the delta's upserts and deletions; old revisions keep theirs", () =>
        Effect.gen(function*() {
          const contents = yield* RevisionContentRepository
          const space = F.spaceId("chain-space")
          const full = F.page("chain-full", {
            kind: "link",
            parentId: F.pageId("chain-plain"),
            emoji: "📘",
            icon: "book",
            description: "Everything set",
            href: "https://example.com",
            hidden: true,
            noIndex: true,
            noRobotsIndex: true,
            layout: { cover: true, title: false, tableOfContents: true, coverSize: "hero" },
            cover: { file: "cover", yPos: -12.5 },
            git: { oid: "abc", path: "docs/full.md" },
            createdAt: new Date(1_700_000_000_001),
            updatedAt: new Date(1_700_000_000_002)
          })
          const plain = F.page("chain-plain", { layout: {}, cover: { file: "c" } })
          const image = F.file("chain-image", { dimensions: { width: 640, height: 480 }, git: { oid: "d", path: "i.png" } })
          const doc = F.file("chain-doc", { contentType: "application/pdf", size: 0 })
          const [r1, r2, r3, r4, r2b] = ["r1", "r2", "r3", "r4", "r2b"].map((id) => F.revisionId(`chain-${id}`))

          yield* contents.save(r1!, space, null, delta({ pages: [full, plain], files: [image, doc] }))
          const loaded = yield* contents.load(r1!)
          expect(loaded).toEqual(contentOf([full, plain], [image, doc]))
          const plainLoaded = loaded.pages.get(plain.id)!
          for (const key of ["emoji", "icon", "description", "href", "git"]) expect(Object.keys(plainLoaded)).not.toContain(key)
          expect(plainLoaded.layout).toEqual({})
          expect(Object.keys(plainLoaded.cover ?? {})).toEqual(["file"])
          expect(Object.keys(loaded.files.get(doc.id)!)).not.toContain("dimensions")
          expect(loaded.pages.get(full.id)!.createdAt).toBeInstanceOf(Date)

          // An edit, a deletion, and a deletion of something that was never there.
          const plain2 = { ...plain, title: "Plain, edited", updatedAt: new Date(1_700_000_000_100) }
          yield* contents.save(
            r2!,
            space,
            r1!,
            delta({
              pages: [plain2],
              deletedPages: [full.id, F.pageId("chain-nowhere")],
              deletedFiles: [doc.id]
            })
          )
          // The deleted page comes back with other content; a page upserted and deleted in one delta is deleted.
          const full3 = { ...full, title: "Full again", parentId: null }
          yield* contents.save(
            r3!,
            space,
            r2!,
            delta({
              pages: [full3, F.page("chain-gone"), { ...plain2, title: "first" }, { ...plain2, title: "last wins" }],
              deletedPages: [F.pageId("chain-gone")],
              files: [doc]
            })
          )
          yield* contents.save(r4!, space, r3!, delta())
          // A branch from r1 sees none of r2's changes.
          const branch = F.page("chain-branch")
          yield* contents.save(r2b!, space, r1!, delta({ pages: [branch], deletedFiles: [image.id] }))

          expect(yield* contents.load(r1!)).toEqual(contentOf([full, plain], [image, doc]))
          expect(yield* contents.load(r2!)).toEqual(contentOf([plain2], [image]))
          const r3Content = contentOf([full3, { ...plain2, title: "last wins" }], [image, doc])
          expect(yield* contents.load(r3!)).toEqual(r3Content)
          expect(yield* contents.load(r4!)).toEqual(r3Content)
          expect(yield* contents.load(r2b!)).toEqual(contentOf([full, plain, branch], [doc]))

          expect(yield* contents.loadPage(r1!, full.id)).toEqual(Option.some(full))
          expect(yield* contents.loadPage(r2!, full.id)).toEqual(Option.none())
          expect(yield* contents.loadPage(r4!, full.id)).toEqual(Option.some(full3))
          expect(yield* contents.loadPage(r4!, F.pageId("chain-gone"))).toEqual(Option.none())
          expect(yield* contents.loadPage(r2b!, plain.id)).toEqual(Option.some(plain))
          // Only the delta is stored: deletions are rows too (NULL), unknown ones included.
          expect(yield* storedRows("revision_pages", "chain-")).toBe(2 + 3 + 3 + 0 + 1)
          expect(yield* storedRows("revision_files", "chain-")).toBe(2 + 1 + 1 + 0 + 1)
        }))

      it.effect("is empty for a revision never saved, and a parent never saved counts as empty", () =>
        Effect.gen(function*() {
          const contents = yield* RevisionContentRepository
          expect(yield* contents.load(F.revisionId("empty-nobody"))).toEqual({ pages: new Map(), files: new Map() })
          expect(yield* contents.loadPage(F.revisionId("empty-nobody"), F.pageId("empty-p"))).toEqual(Option.none())

          const orphan = F.page("empty-p")
          yield* contents.save(
            F.revisionId("empty-orphan"),
            F.spaceId("empty-space"),
            F.revisionId("empty-unsaved"),
            delta({ pages: [orphan], deletedPages: [F.pageId("empty-q")] })
          )
          expect(yield* contents.load(F.revisionId("empty-orphan"))).toEqual(contentOf([orphan]))
          // Saving the missing parent afterwards changes nothing: the orphan started a chain of its own.
          yield* contents.save(F.revisionId("empty-unsaved"), F.spaceId("empty-space"), null, delta({ pages: [F.page("empty-q")] }))
          expect(yield* contents.load(F.revisionId("empty-orphan"))).toEqual(contentOf([orphan]))
          expect(yield* chainRows("empty-")).toEqual([
            { revision_id: "empty-orphan", depth: 0, is_snapshot: true },
            { revision_id: "empty-unsaved", depth: 0, is_snapshot: true }
          ])
          // A root holds no deletions: there is nothing under it to delete.
          expect(yield* storedRows("revision_pages", "empty-")).toBe(2)
        }))

      it.effect("is kept or dropped with the unit of work that saves it", () =>
        Effect.gen(function*() {
          const contents = yield* RevisionContentRepository
          const unitOfWork = yield* UnitOfWork
          const save = (id: string) => contents.save(F.revisionId(id), F.spaceId("uow-space"), null, delta({ pages: [F.page(`${id}-p`)] }))
          const failed = yield* Effect.either(unitOfWork.transaction(Effect.zipRight(save("uow-dropped"), Effect.fail("later failure"))))
          expect(Either.isLeft(failed)).toBe(true)
          yield* unitOfWork.transaction(save("uow-kept"))
          expect((yield* contents.load(F.revisionId("uow-dropped"))).pages.size).toBe(0)
          expect([...(yield* contents.load(F.revisionId("uow-kept"))).pages.keys()]).toEqual(["uow-kept-p"])
          expect(yield* storedRows("revision_contents", "uow-")).toBe(1)
        }))

      it.effect("loads what a reference computes in memory for a random sequence of deltas", () => randomHistory("random-", 20_240_601, 60))

      it.effect("loads one page along the chain: the nearest revision that set or deleted it", () =>
        Effect.gen(function*() {
          const contents = yield* RevisionContentRepository
          const space = F.spaceId("one-space")
          const target = F.pageId("one-target")
          const other = F.page("one-other")
          const versions: ReadonlyArray<Option.Option<ContentPage>> = [
            Option.some(F.page("one-target", { title: "v0" })),
            Option.some(F.page("one-target", { title: "v0" })), // r1 changes another page only
            Option.some(F.page("one-target", { title: "v2", emoji: "🌱" })),
            Option.some(F.page("one-target", { title: "v2", emoji: "🌱" })),
            Option.none(), // r4 deletes it
            Option.none(),
            Option.some(F.page("one-target", { title: "v6" })) // r6 adds it again
          ]
          const deltas: ReadonlyArray<ContentDelta> = [
            delta({ pages: [Option.getOrThrow(versions[0]!), other] }),
            delta({ pages: [{ ...other, title: "edited" }] }),
            delta({ pages: [Option.getOrThrow(versions[2]!)] }),
            delta({ deletedPages: [other.id] }),
            delta({ deletedPages: [target] }),
            delta({ pages: [other] }),
            delta({ pages: [Option.getOrThrow(versions[6]!)] })
          ]
          for (const [i, change] of deltas.entries()) {
            yield* contents.save(F.revisionId(`one-r${i}`), space, i === 0 ? null : F.revisionId(`one-r${i - 1}`), change)
          }
          for (const [i, expected] of versions.entries()) {
            expect(yield* contents.loadPage(F.revisionId(`one-r${i}`), target)).toEqual(expected)
          }
          expect(yield* contents.loadPage(F.revisionId("one-r6"), F.pageId("one-missing"))).toEqual(Option.none())
          expect(yield* contents.loadPage(F.revisionId("one-r3"), other.id)).toEqual(Option.none())
          expect(yield* contents.loadPage(F.revisionId("one-r5"), other.id)).toEqual(Option.some(other))
        }))

      it.effect(`stores a revision in full once ${SNAPSHOT_INTERVAL} revisions of deltas follow a snapshot`, () =>
        Effect.gen(function*() {
          const contents = yield* RevisionContentRepository
          const space = F.spaceId("snap-space")
          const revisionId = (i: number) => F.revisionId(`snap-r${String(i).padStart(5, "0")}`)
          const rootFile = F.file("snap-f")
          let reference = contentOf([F.page("snap-a"), F.page("snap-b"), F.page("snap-c")], [rootFile])
          yield* contents.save(revisionId(0), space, null, delta({ pages: [...reference.pages.values()], files: [rootFile] }))
          const references = [reference]
          const count = SNAPSHOT_INTERVAL + 5
          for (let i = 1; i < count; i++) {
            const pages = [...reference.pages.values()]
            // One change per revision: a deletion, a new page, or an edit.
            const change = i % 7 === 0
              ? delta({ deletedPages: [pages[0]!.id] })
              : i % 3 === 0
              ? delta({ pages: [F.page(`snap-n${i}`)] })
              : delta({ pages: [{ ...pages[i % pages.length]!, title: `Edit ${i}`, updatedAt: new Date(i) }] })
            const before = yield* storedRows("revision_pages", "snap-")
            const filesBefore = yield* storedRows("revision_files", "snap-")
            yield* contents.save(revisionId(i), space, revisionId(i - 1), change)
            reference = applyDelta(reference, change)
            references.push(reference)
            const isSnapshot = i === SNAPSHOT_INTERVAL
            expect(yield* storedRows("revision_pages", "snap-")).toBe(before + (isSnapshot ? reference.pages.size : 1))
            expect(yield* storedRows("revision_files", "snap-")).toBe(filesBefore + (isSnapshot ? 1 : 0))
          }
          const chain = yield* chainRows("snap-")
          expect(chain.filter((row) => row.is_snapshot).map((row) => row.revision_id)).toEqual([
            revisionId(0),
            revisionId(SNAPSHOT_INTERVAL)
          ])
          expect(chain.map((row) => row.depth)).toEqual(Array.from({ length: count }, (_, i) => i % SNAPSHOT_INTERVAL))
          // Loading walks up to a snapshot: check a spread of revisions, the snapshot's neighbours included.
          for (const [i, expected] of references.entries()) {
            if (i % 97 === 0 || Math.abs(i - SNAPSHOT_INTERVAL) <= 1 || i >= count - 2) {
              expect(yield* contents.load(revisionId(i))).toEqual(expected)
            }
          }
          const last = references[count - 1]!
          for (const page of last.pages.values()) {
            expect(yield* contents.loadPage(revisionId(count - 1), page.id)).toEqual(Option.some(page))
          }
          expect(yield* contents.loadPage(revisionId(count - 1), F.pageId("snap-a"))).toEqual(
            Option.fromNullable(last.pages.get(F.pageId("snap-a")))
          )
        }))

      it.effect("stores one row for a revision that changes one page of a 5,000-page space", () =>
        Effect.gen(function*() {
          const contents = yield* RevisionContentRepository
          const space = F.spaceId("big-space")
          const first = Array.from({ length: 5_000 }, (_, i) =>
            F.page(`big-p${i}`, { position: `V${i}`, markdown: `# Page ${i}\n\n${"text ".repeat(20)}` }))
          yield* contents.save(F.revisionId("big-r00"), space, null, delta({ pages: first }))
          expect(yield* storedRows("revision_pages", "big-")).toBe(5_000)
          let reference = contentOf(first)
          for (let i = 1; i <= 12; i++) {
            const change = i % 4 === 0
              ? delta({ deletedPages: [F.pageId(`big-p${i * 101}`)] })
              : i % 4 === 1
              ? delta({ pages: [F.page(`big-new${i}`)] })
              : delta({ pages: [{ ...reference.pages.get(F.pageId(`big-p${i * 37}`))!, title: `Edit ${i}` }] })
            const id = (n: number) =>
              F.revisionId(`big-r${String(n).padStart(2, "0")}`)
            yield* contents.save(id(i), space, id(i - 1), change)
            reference = applyDelta(reference, change)
            expect(yield* storedRows("revision_pages", "big-")).toBe(5_000 + i)
          }
          const last = F.revisionId("big-r12")
          expect(yield* contents.load(last)).toEqual(reference)
          expect(yield* contents.loadPage(last, F.pageId("big-p74"))).toEqual(Option.some({ ...first[74]!, title: "Edit 2" }))
          expect(yield* contents.loadPage(last, F.pageId("big-p4999"))).toEqual(Option.some(first[4_999]!))
          expect(yield* contents.loadPage(last, F.pageId("big-p404"))).toEqual(Option.none())
          expect((yield* contents.load(F.revisionId("big-r00"))).pages.size).toBe(5_000)
        }))
    })

    describe("blobs", () => {
      it.effect("round-trips bytes of every value, empty and large ones, as plain Uint8Arrays", () =>
        Effect.gen(function*() {
          const blobs = yield* BlobStore
          const next = F.random(99)
          const cases: ReadonlyArray<readonly [string, Uint8Array]> = [
            ["blob-empty", new Uint8Array(0)],
            ["blob-all", Uint8Array.from({ length: 256 }, (_, i) => i)],
            ["blob-large", Uint8Array.from({ length: 1024 * 1024 + 1 }, () => Math.floor(next() * 256))]
          ]
          for (const [key, bytes] of cases) yield* blobs.put(key, bytes)
          for (const [key, bytes] of cases) {
            const found = Option.getOrThrow(yield* blobs.get(key))
            expect(Object.getPrototypeOf(found)).toBe(Uint8Array.prototype)
            expect(found.length).toBe(bytes.length)
            // Byte by byte without toEqual, which is slow on a megabyte.
            expect(found.findIndex((byte, i) => byte !== bytes[i])).toBe(-1)
          }
          expect(Option.getOrThrow(yield* blobs.get("blob-all"))).toEqual(cases[1]![1])
          // A view into a larger buffer stores only its own bytes.
          const backing = Uint8Array.from([9, 9, 1, 2, 3, 9])
          yield* blobs.put("blob-view", backing.subarray(2, 5))
          expect(yield* blobs.get("blob-view")).toEqual(Option.some(Uint8Array.from([1, 2, 3])))
          expect(yield* blobs.get("blob-missing")).toEqual(Option.none())
          expect(yield* blobs.get("BLOB-ALL")).toEqual(Option.none())
        }))

      it.effect("keeps one copy when the same key is put again", () =>
        Effect.gen(function*() {
          const blobs = yield* BlobStore
          const sql = yield* SqlClient.SqlClient
          const bytes = Uint8Array.from([0, 1, 2, 255])
          yield* blobs.put("blob-twice", bytes)
          yield* blobs.put("blob-twice", bytes)
          // A key is the hash of its bytes, so other bytes under it cannot happen; the first copy stays.
          yield* blobs.put("blob-twice", Uint8Array.from([7]))
          expect(yield* blobs.get("blob-twice")).toEqual(Option.some(bytes))
          const rows = yield* sql<{ readonly count: number }>`SELECT count(*)::int AS count FROM blobs
            WHERE key = ${"blob-twice"}`.pipe(Effect.orDie)
          expect(rows).toEqual([{ count: 1 }])
        }))
    })
  })

  // A short snapshot interval, so that random histories cross many snapshots, on branches too.
  const shortChains = makeRevisionContentRepositoryLive(3).pipe(
    Layer.provide(MigrationsLive),
    Layer.provideMerge(makeClient())
  )
  layer(shortChains, { timeout: "120 seconds" })(`${name}, snapshots every 3 revisions`, (it) => {
    it.effect("loads what a reference computes in memory for random deltas across snapshots", () =>
      Effect.gen(function*() {
        yield* randomHistory("short-", 7, 80)
        const chain = yield* chainRows("short-")
        expect(chain.filter((row) => row.is_snapshot).length).toBeGreaterThan(10)
        expect(Math.max(...chain.map((row) => row.depth))).toBe(2)
      }))
  })
}

for (const [name, makeClient] of sqlClients) suite(name, makeClient)
