import {
  BlobStore,
  branchOf,
  type ChangeRequestCounts,
  ChangeRequestRepository,
  conflicts,
  type FileId,
  type PageId,
  type RevisionContent,
  RevisionContentRepository,
  type SpaceId
} from "@octavo/domain"
import { Effect, HashMap, Option } from "effect"
import { byCreation, layerOver, unique } from "../shared/index.js"
import { ContentState, emptyRevision } from "./State.js"

/** Applies changes to a persistent map: sets what is written, then removes what is deleted. */
const applied = <V extends { readonly id: string }>(
  base: HashMap.HashMap<string, V>,
  written: ReadonlyArray<V>,
  deleted: ReadonlyArray<string>
): HashMap.HashMap<string, V> => {
  let next = base
  for (const value of written) next = HashMap.set(next, value.id, value)
  for (const id of deleted) next = HashMap.remove(next, id)
  return next
}

export const MemoryRevisionContentRepository = layerOver(RevisionContentRepository, ContentState, ({ revisionContents }) => {
  const contentOf = (revisionId: string) => Effect.map(revisionContents.get(revisionId), Option.getOrElse(() => emptyRevision))
  const load = (revisionId: string): Effect.Effect<RevisionContent> =>
    Effect.map(contentOf(revisionId), (content) => ({
      pages: new Map(Array.from(HashMap.values(content.pages), (p) => [p.id as PageId, p])),
      files: new Map(Array.from(HashMap.values(content.files), (f) => [f.id as FileId, f]))
    }))
  return {
    save: (revisionId, _spaceId, parentId, delta) =>
      revisionContents.update((held) => {
        const base = parentId === null ? emptyRevision : Option.getOrElse(HashMap.get(held, parentId), () => emptyRevision)
        return HashMap.set(held, revisionId, {
          pages: applied(base.pages, delta.pages, delta.deletedPages),
          files: applied(base.files, delta.files, delta.deletedFiles)
        })
      }),
    load,
    loadBranch: (revisionId, pageId) => Effect.map(load(revisionId), (content) => branchOf(content, pageId)),
    loadPage: (revisionId, pageId) => Effect.map(revisionContents.get(revisionId), Option.flatMap((c) => HashMap.get(c.pages, pageId)))
  }
})

export const MemoryBlobStore = layerOver(BlobStore, ContentState, ({ blobs }) => ({
  // The same key kept twice keeps the first copy.
  put: (key, bytes) => blobs.update((held) => HashMap.has(held, key) ? held : HashMap.set(held, key, new Uint8Array(bytes))),
  get: blobs.get
}))

export const MemoryChangeRequestRepository = layerOver(ChangeRequestRepository, ContentState, ({ changeRequests }) => ({
  insert: (cr) =>
    changeRequests.insert(
      cr.id,
      cr,
      unique((c) => c.spaceId === cr.spaceId && c.number === cr.number, () => conflicts.changeRequestNumberTaken(cr.number))
    ),
  update: (cr) => changeRequests.replace(cr.id, cr),
  findById: changeRequests.get,
  findByNumber: (spaceId, number) => changeRequests.find((c) => c.spaceId === spaceId && c.number === number),
  findByRevision: (spaceId, revisionId) => changeRequests.find((c) => c.spaceId === spaceId && c.revisionId === revisionId),
  lastNumber: (spaceId) =>
    Effect.map(changeRequests.filter((c) => c.spaceId === spaceId), (held) => held.reduce((max, c) => Math.max(max, c.number), 0)),
  list: (spaceId, filter, page) =>
    changeRequests.page(
      (c) => c.spaceId === spaceId && (filter.status === undefined || c.status === filter.status),
      byCreation,
      "desc",
      page
    ),
  countsFor: (spaceIds) =>
    Effect.map(changeRequests.filter((c) => spaceIds.includes(c.spaceId)), (held) => {
      const counts = new Map<SpaceId, ChangeRequestCounts>()
      for (const c of held) {
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
