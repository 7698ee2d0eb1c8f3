import {
  BlobStore,
  type ChangeRequestCounts,
  conflicts,
  ChangeRequestRepository,
  type ContentPage,
  type File,
  type FileId,
  type Keyset,
  type PageId,
  pageInMemory,
  RevisionContentRepository,
  type SpaceId
} from "@octavo/domain"
import { Effect, HashMap, Layer, Option } from "effect"
import { MemoryStore, replace, values } from "./Store.js"

const emptyMaps = { pages: HashMap.empty<string, ContentPage>(), files: HashMap.empty<string, File>() }

export const MemoryRevisionContentRepository = Layer.effect(
  RevisionContentRepository,
  Effect.map(MemoryStore, (store) => ({
    save: (revisionId, _spaceId, parentId, delta) =>
      store.write((s) => {
        const base = parentId === null ? emptyMaps : Option.getOrElse(HashMap.get(s.revisionContents, parentId), () => emptyMaps)
        let pages = base.pages
        for (const page of delta.pages) pages = HashMap.set(pages, page.id, page)
        for (const id of delta.deletedPages) pages = HashMap.remove(pages, id)
        let files = base.files
        for (const file of delta.files) files = HashMap.set(files, file.id, file)
        for (const id of delta.deletedFiles) files = HashMap.remove(files, id)
        return [undefined, { ...s, revisionContents: HashMap.set(s.revisionContents, revisionId, { pages, files }) }] as const
      }),
    load: (revisionId) =>
      store.read((s) => {
        const content = Option.getOrElse(HashMap.get(s.revisionContents, revisionId), () => emptyMaps)
        return {
          pages: new Map(Array.from(HashMap.values(content.pages), (p) => [p.id as PageId, p])),
          files: new Map(Array.from(HashMap.values(content.files), (f) => [f.id as FileId, f]))
        }
      }),
    loadPage: (revisionId, pageId) =>
      store.read((s) => Option.flatMap(HashMap.get(s.revisionContents, revisionId), (c) => HashMap.get(c.pages, pageId)))
  }))
)

export const MemoryBlobStore = Layer.effect(
  BlobStore,
  Effect.map(MemoryStore, (store) => ({
    put: (key, bytes) =>
      store.write((s) => [undefined, HashMap.has(s.blobs, key) ? s : { ...s, blobs: HashMap.set(s.blobs, key, new Uint8Array(bytes)) }] as const),
    get: (key) => store.read((s) => HashMap.get(s.blobs, key))
  }))
)

export const MemoryChangeRequestRepository = Layer.effect(
  ChangeRequestRepository,
  Effect.map(MemoryStore, (store) => ({
    insert: (cr) =>
      store.write((s) =>
        HashMap.some(s.changeRequests, (c) => c.spaceId === cr.spaceId && c.number === cr.number)
          ? Effect.fail(conflicts.changeRequestNumberTaken(cr.number))
          : Effect.succeed([undefined, { ...s, changeRequests: HashMap.set(s.changeRequests, cr.id, cr) }] as const)
      ),
    update: (cr) => store.write((s) => [undefined, { ...s, changeRequests: replace(s.changeRequests, cr.id, cr) }] as const),
    findById: (id) => store.read((s) => HashMap.get(s.changeRequests, id)),
    findByNumber: (spaceId, number) =>
      store.read((s) => HashMap.findFirst(s.changeRequests, (c) => c.spaceId === spaceId && c.number === number).pipe(Option.map(([, c]) => c))),
    lastNumber: (spaceId) =>
      store.read((s) => values(s.changeRequests).filter((c) => c.spaceId === spaceId).reduce((max, c) => Math.max(max, c.number), 0)),
    list: (spaceId, filter, page) =>
      store.read((s) =>
        pageInMemory(
          values(s.changeRequests).filter((c) => c.spaceId === spaceId && (filter.status === undefined || c.status === filter.status)),
          (c): Keyset => [c.createdAt.getTime(), c.id],
          "desc",
          page
        )
      ),
    countsFor: (spaceIds) =>
      store.read((s) => {
        const counts = new Map<SpaceId, ChangeRequestCounts>()
        for (const c of values(s.changeRequests)) {
          if (!spaceIds.includes(c.spaceId)) continue
          const current = counts.get(c.spaceId) ?? { total: 0, open: 0, draft: 0 }
          counts.set(c.spaceId, {
            total: current.total + 1,
            open: current.open + (c.status === "open" ? 1 : 0),
            draft: current.draft + (c.status === "draft" ? 1 : 0)
          })
        }
        return counts
      })
  }))
)
