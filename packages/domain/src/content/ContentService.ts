import { Effect, Option } from "effect"
import { Conflict, NotFound } from "../shared/Errors.js"
import type { FileId, OrganizationId, PageId, RevisionId, SpaceId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { type Keyset, pageInMemory, type PageRequest } from "../shared/Pagination.js"
import { HeavyWork } from "../shared/HeavyWork.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { RevisionRepository } from "../spaces/Ports.js"
import type { ChangeRequestView } from "./ChangeRequest.js"
import type { Revision } from "../spaces/Space.js"
import { SpaceAccess, type SpaceGrant } from "../spaces/SpaceAccess.js"
import { PageLinkTargets, PageLinkTargetsLive } from "./Caches.js"
import { type AppliedChange, applyChanges, type FetchedFile, nodeOf, type PageOutcome, pathOf } from "./Changes.js"
import { makeFileFetch } from "./Fetch.js"
import { ContentChanges, type File, type RevisionContent } from "./Page.js"
import { type Link, type LinkStatus, linksOf } from "./Links.js"
import {
  BlobStore,
  ChangeRequestViewFacts,
  ChangeRequestRepository,
  RevisionOrigins,
  type RevisionGitInfo
} from "./Ports.js"
import { RevisionContents } from "./RevisionContents.js"
import { makeRevisions } from "./Revisions.js"

const hex = (buffer: ArrayBuffer): string => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")

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

/** The content of spaces: reading revisions and pages, and editing live. */
export class Content extends Effect.Service<Content>()("@octavo/domain/Content", {
  effect: Effect.gen(function*() {
    const guard = yield* SpaceAccess
    const revisions = yield* RevisionRepository
    const contents = yield* RevisionContents
    const blobs = yield* BlobStore
    const changeRequests = yield* ChangeRequestRepository
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const written = yield* makeRevisions
    const fetchFiles = yield* makeFileFetch
    const changeRequestFacts = yield* ChangeRequestViewFacts
    const origins = yield* RevisionOrigins
    const work = yield* HeavyWork
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

    /** Any revision of the space, old ones included: they stay readable. */
    const revisionOf = (spaceId: SpaceId, revisionId: RevisionId) =>
      Effect.flatMap(guard.space(spaceId), (grant) => revisionIn(grant, revisionId))

    /** A revision's content when it is one of the space's; `revert_page` reads it. */
    const contentOfRevision = (spaceId: SpaceId) => (revisionId: RevisionId) =>
      Effect.gen(function*() {
        const found = yield* revisions.findById(revisionId)
        if (Option.isNone(found) || found.value.spaceId !== spaceId) return undefined
        return yield* contents.load(revisionId)
      })

    const lockedSpace = new Conflict({ reason: "The space is locked: its content cannot be edited" })

    /** The space, when the actor may edit it live: `edit` level, and not locked (409). */
    const requireEditable = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        const proof = yield* guard.authorize(spaceId, "edit", "edit this space")
        if (proof.space.editMode === "locked") return yield* lockedSpace
        return proof
      })

    /**
     * Live editing: `edit` level, and the space must not be locked. `plan` turns the active
     * revision's content into the changes to apply; one batch, one new revision.
     */
    const editLiveWith = <E>(
      spaceId: SpaceId,
      plan: (base: RevisionContent) => Effect.Effect<ReadonlyArray<AppliedChange>, E>,
      fetched?: ReadonlyMap<string, FetchedFile>
    ) =>
      Effect.gen(function*() {
        const proof = yield* requireEditable(spaceId)
        return yield* uow.transaction(Effect.gen(function*() {
          const space = yield* guard.lockForChange(proof)
          if (space.editMode === "locked") return yield* lockedSpace
          const base = yield* contents.load(space.revisionId)
          const at = yield* now
          const applied = yield* applyChanges(base, yield* plan(base), {
            now: at,
            newId: secrets.newId,
            storeBlob,
            fetched,
            revertBase: Effect.succeed(base),
            revisionContent: contentOfRevision(space.id),
            work
          })
          const revision = yield* written.record(proof, [space.revisionId], "edits", at, {
            on: space.revisionId,
            delta: applied.delta,
            content: applied.content
          })
          yield* written.activate(space, revision, base, applied.content, applied.delta)
          return {
            revision,
            content: applied.content,
            outcomes: applied.outcomes,
            insertedFiles: applied.insertedFiles
          } satisfies EditedView
        }))
      })

    const editLive = (spaceId: SpaceId, input: ContentChanges) =>
      Effect.gen(function*() {
        const valid = yield* validate(ContentChanges)(input)
        yield* requireEditable(spaceId)
        const fetched = yield* fetchFiles(valid.changes)
        return yield* editLiveWith(spaceId, () => Effect.succeed(valid.changes), fetched)
      })

    /** A page of a revision, with its path and the pages below it. */
    const pageIn = (view: RevisionView, pageId: PageId) => nodeOrFail(view.content, pageId)

    /** A page of the active revision, read as its branch: not the whole revision. */
    const page = (spaceId: SpaceId, pageId: PageId) =>
      Effect.gen(function*() {
        const { space } = yield* guard.space(spaceId)
        const branch = yield* contents.loadBranch(space.revisionId, pageId)
        return yield* nodeOrFail({ pages: new Map(branch.map((p) => [p.id, p])), files: new Map() }, pageId)
      })

    /** A page of a revision by its path (slugs joined by "/"). */
    const pageAtPath = (view: RevisionView, path: string) => {
      const wanted = path.replace(/^\/+|\/+$/g, "")
      for (const candidate of view.content.pages.values()) {
        if (pathOf(view.content, candidate) === wanted) return pageIn(view, candidate.id)
      }
      return Effect.fail(new NotFound({ entity: "page", id: wanted }))
    }

    const pageByPath = (spaceId: SpaceId, path: string) => Effect.flatMap(current(spaceId), (view) => pageAtPath(view, path))

    const files = (spaceId: SpaceId, request: PageRequest) => Effect.map(current(spaceId), (view) => filesIn(view, request))

    const file = (spaceId: SpaceId, fileId: FileId) => Effect.flatMap(current(spaceId), (view) => fileIn(view, fileId))

    /** A file's bytes, from the blob store. */
    const fileBytes = (found: File) =>
      Effect.flatMap(
        blobs.get(found.blobKey),
        Option.match({
          onNone: () => Effect.fail(new NotFound({ entity: "file", id: found.id })),
          onSome: (bytes) => Effect.succeed({ file: found, bytes })
        })
      )

    /** The bytes of a file of the active revision. */
    const download = (spaceId: SpaceId, fileId: FileId) => Effect.flatMap(file(spaceId, fileId), fileBytes)

    const byIndex = (link: Link): Keyset => [link.index, `${link.page}:${link.index}`]

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

    const links = (
      spaceId: SpaceId,
      appBase: string,
      filter: { readonly status?: LinkStatus | undefined; readonly page?: PageId | undefined },
      request: PageRequest
    ) =>
      Effect.flatMap(current(spaceId), (view) =>
        linksIn(view, appBase, filter, request, () =>
          Effect.gen(function*() {
            const open = yield* changeRequests.list(spaceId, { status: "open" }, { limit: 1000, after: Option.none() })
            let broken = 0
            for (const changeRequest of open.items) {
              const crLinks = linksOf(yield* contents.load(changeRequest.revisionId), appBase, linkTargets)
              broken += crLinks.filter((l) => l.status === "broken" && (filter.page === undefined || l.page === filter.page)).length
            }
            return broken
          })))

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

    const fileBacklinks = (spaceId: SpaceId, fileId: FileId, appBase: string, request: PageRequest) =>
      Effect.gen(function*() {
        const { space } = yield* guard.space(spaceId)
        return yield* fileBacklinksIn(yield* loadRevision(space.revisionId), space.organizationId, fileId, appBase, request)
      })

    const filesIn = (view: RevisionView, request: PageRequest) =>
      pageInMemory(Array.from(view.content.files.values()), (f: File): Keyset => [f.createdAt.getTime(), f.id], "asc", request)

    const fileIn = (view: RevisionView, fileId: FileId) => {
      const found = view.content.files.get(fileId)
      return found === undefined ? Effect.fail(new NotFound({ entity: "file", id: fileId })) : Effect.succeed(found)
    }

    return {
      contentOfRevision,
      fetchFiles,
      current,
      revisionIn,
      revisionOf,
      editLive,
      editLiveWith,
      requireEditable,
      page,
      pageIn,
      pageAtPath,
      pageByPath,
      files,
      file,
      download,
      fileBytes,
      storeBlob,
      links,
      fileBacklinks,
      linksIn,
      fileBacklinksIn,
      filesIn,
      fileIn
    } as const
  }),
  dependencies: [PageLinkTargetsLive]
}) {}

const nodeOrFail = (content: RevisionContent, pageId: PageId) => {
  const node = nodeOf(content, pageId)
  return node === undefined ? Effect.fail(new NotFound({ entity: "page", id: pageId })) : Effect.succeed(node)
}
