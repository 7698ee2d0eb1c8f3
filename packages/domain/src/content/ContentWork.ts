import { Effect, Option } from "effect"
import { NotFound } from "../shared/Errors.js"
import type { FileId, OrganizationId, PageId, RevisionId, SpaceId } from "../shared/Ids.js"
import { type Keyset, pageInMemory, type PageRequest } from "../shared/Pagination.js"
import { RevisionRepository } from "../spaces/Ports.js"
import type { Revision } from "../spaces/Space.js"
import { SpaceAccess, type SpaceGrant } from "../spaces/SpaceAccess.js"
import { PageLinkTargets } from "./Caches.js"
import type { ChangeRequestView } from "./ChangeRequest.js"
import { nodeOf, type PageOutcome, pathOf } from "./Changes.js"
import { type Link, type LinkStatus, linksOf } from "./Links.js"
import type { File, RevisionContent } from "./Page.js"
import { BlobStore, ChangeRequestRepository, ChangeRequestViewFacts, RevisionOrigins, type RevisionGitInfo } from "./Ports.js"
import { RevisionContents } from "./RevisionContents.js"

/** A revision with what it holds. */
export interface RevisionView {
  readonly revision: Revision
  readonly content: RevisionContent
  /** For a merge revision: the change request it merged. */
  readonly mergedFrom?: ChangeRequestView | undefined
  /** For a revision an import made: the Git commit it came from. */
  readonly git?: RevisionGitInfo | undefined
}

/** A revision a batch of changes made, with what the batch did to pages and the files it added. */
export interface EditedView extends RevisionView {
  readonly outcomes: ReadonlyArray<PageOutcome>
  readonly insertedFiles: ReadonlyArray<File>
}

const hex = (buffer: ArrayBuffer): string => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")

/** A page of `content`, with its path and the pages below it. */
export const nodeOrFail = (content: RevisionContent, pageId: PageId) => {
  const node = nodeOf(content, pageId)
  return node === undefined ? Effect.fail(new NotFound({ entity: "page", id: pageId })) : Effect.succeed(node)
}

const byIndex = (link: Link): Keyset => [link.index, `${link.page}:${link.index}`]

/**
 * What the content of a space and of its change requests is read and written with: loading a
 * revision (the space's active one with `read` level), finding its pages, files and links, and
 * storing a file's bytes.
 */
export const makeContentWork = Effect.gen(function*() {
  const guard = yield* SpaceAccess
  const revisions = yield* RevisionRepository
  const contents = yield* RevisionContents
  const blobs = yield* BlobStore
  const changeRequests = yield* ChangeRequestRepository
  const changeRequestFacts = yield* ChangeRequestViewFacts
  const origins = yield* RevisionOrigins
  const linkTargets = yield* PageLinkTargets

  const storeBlob = (bytes: Uint8Array) =>
    Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new Uint8Array(bytes))).pipe(
      Effect.map(hex),
      Effect.tap((key) => blobs.put(key, bytes))
    )

  const loadRevision = (revisionId: RevisionId) =>
    Effect.gen(function*() {
      const found = yield* origins.find(revisionId)
      if (Option.isNone(found)) return yield* new NotFound({ entity: "revision", id: revisionId })
      const { git, revision } = found.value
      const merged = revision.type === "merge" ? revision.parents[1] : undefined
      const changeRequest = merged === undefined
        ? undefined
        : Option.getOrUndefined(yield* changeRequests.findByRevision(revision.spaceId, merged))
      const mergedFrom: ChangeRequestView | undefined = changeRequest === undefined
        ? undefined
        : yield* Effect.map(changeRequestFacts.of([changeRequest]), (facts) => ({
          changeRequest,
          outdated: false,
          createdBy: facts.authors.get(changeRequest.createdBy),
          openComments: facts.openComments.get(changeRequest.id) ?? 0
        }))
      const content = yield* contents.load(revisionId)
      return { revision, content, mergedFrom, git: Option.getOrUndefined(git) } satisfies RevisionView
    })

  /** The space's active revision; `read` level. */
  const current = (spaceId: SpaceId) => Effect.flatMap(guard.space(spaceId), ({ space }) => loadRevision(space.revisionId))

  /** Any revision of a space the actor was granted, old ones included: they stay readable. */
  const revisionIn = (grant: SpaceGrant, revisionId: RevisionId) =>
    Effect.gen(function*() {
      const view = yield* loadRevision(revisionId)
      if (view.revision.spaceId !== grant.space.id) return yield* new NotFound({ entity: "revision", id: revisionId })
      return view
    })

  /** A revision's content when it is one of the space's; `revert_page` reads it. */
  const contentOfRevision = (spaceId: SpaceId) => (revisionId: RevisionId) =>
    Effect.gen(function*() {
      const found = yield* revisions.findById(revisionId)
      if (Option.isNone(found) || found.value.spaceId !== spaceId) return undefined
      return yield* contents.load(revisionId)
    })

  /** A page of a revision, with its path and the pages below it. */
  const pageIn = (view: RevisionView, pageId: PageId) => nodeOrFail(view.content, pageId)

  /** A page of a revision by its path (slugs joined by "/"). */
  const pageAtPath = (view: RevisionView, path: string) => {
    const wanted = path.replace(/^\/+|\/+$/g, "")
    for (const candidate of view.content.pages.values()) {
      if (pathOf(view.content, candidate) === wanted) return pageIn(view, candidate.id)
    }
    return Effect.fail(new NotFound({ entity: "page", id: wanted }))
  }

  const filesIn = (view: RevisionView, request: PageRequest) =>
    pageInMemory(Array.from(view.content.files.values()), (f: File): Keyset => [f.createdAt.getTime(), f.id], "asc", request)

  const fileIn = (view: RevisionView, fileId: FileId) => {
    const found = view.content.files.get(fileId)
    return found === undefined ? Effect.fail(new NotFound({ entity: "file", id: fileId })) : Effect.succeed(found)
  }

  /** A file's bytes, from the blob store. */
  const fileBytes = (found: File) =>
    Effect.flatMap(
      blobs.get(found.blobKey),
      Option.match({
        onNone: () => Effect.fail(new NotFound({ entity: "file", id: found.id })),
        onSome: (bytes) => Effect.succeed({ file: found, bytes })
      })
    )

  /**
   * The links of a revision, filtered by status, with stats: every link, the broken ones, and
   * broken links in change requests (the space's open ones; for a change request, its own).
   */
  const linksIn = (
    view: RevisionView,
    appBase: string,
    filter: { readonly status?: LinkStatus | undefined; readonly page?: PageId | undefined },
    request: PageRequest,
    brokenInChangeRequests: (all: ReadonlyArray<Link>) => Effect.Effect<number>
  ) =>
    Effect.gen(function*() {
      if (filter.page !== undefined && !view.content.pages.has(filter.page)) {
        return yield* new NotFound({ entity: "page", id: filter.page })
      }
      const all = linksOf(view.content, appBase, linkTargets).filter((l) => filter.page === undefined || l.page === filter.page)
      const listed = pageInMemory(all.filter((l) => filter.status === undefined || l.status === filter.status), byIndex, "asc", request)
      return {
        ...listed,
        stats: {
          total: all.length,
          broken: { total: all.filter((l) => l.status === "broken").length, changeRequest: yield* brokenInChangeRequests(all) }
        }
      }
    })

  /** The pages of a revision (of a space of `organizationId`) that link to one of its files. */
  const fileBacklinksIn = (view: RevisionView, organizationId: OrganizationId, fileId: FileId, appBase: string, request: PageRequest) => {
    if (!view.content.files.has(fileId)) return Effect.fail(new NotFound({ entity: "file", id: fileId }))
    const referring = linksOf(view.content, appBase, linkTargets).filter((l) => l.target.kind === "file" && l.target.file === fileId)
    const pages = Array.from(new Set(referring.map((l) => l.page))).flatMap((id) => {
      const page = view.content.pages.get(id)
      return page === undefined ? [] : [{ page, path: pathOf(view.content, page), revision: view.revision, organizationId }]
    })
    return Effect.succeed(pageInMemory(pages, (p): Keyset => [p.page.createdAt.getTime(), p.page.id], "asc", request))
  }

  return {
    storeBlob,
    loadRevision,
    current,
    revisionIn,
    contentOfRevision,
    pageIn,
    pageAtPath,
    filesIn,
    fileIn,
    fileBytes,
    linksIn,
    fileBacklinksIn,
    linkTargets
  } as const
})
