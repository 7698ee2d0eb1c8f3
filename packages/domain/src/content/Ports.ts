import { Context, Effect, Option } from "effect"
import type { Conflict } from "../shared/Errors.js"
import type { ChangeRequestId, PageId, RevisionId, SpaceId } from "../shared/Ids.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import type { ChangeRequest, ChangeRequestStatus } from "./ChangeRequest.js"
import type { Revision } from "../spaces/Space.js"
import type { ContentDelta, ContentPage, RevisionContent } from "./Page.js"

export class RevisionContentRepository extends Context.Tag("@octavo/domain/RevisionContentRepository")<RevisionContentRepository, {
  /**
   * Stores a revision's content as its parent's (none for a first revision) plus a delta. What is
   * stored grows with the delta, not with the size of the content.
   */
  readonly save: (revisionId: RevisionId, spaceId: SpaceId, parentId: RevisionId | null, delta: ContentDelta) => Effect.Effect<void>
  /** Everything a revision holds; empty for a revision with no stored content. */
  readonly load: (revisionId: RevisionId) => Effect.Effect<RevisionContent>
  /** One page of a revision. */
  readonly loadPage: (revisionId: RevisionId, pageId: PageId) => Effect.Effect<Option.Option<ContentPage>>
  /**
   * A page's branch in a revision, as `branchOf` takes it from the whole content: the page, the
   * pages above it and every page below it, in any order; empty when the revision does not hold
   * the page. What is read grows with the branch, not with the revision.
   */
  readonly loadBranch: (revisionId: RevisionId, pageId: PageId) => Effect.Effect<ReadonlyArray<ContentPage>>
}>() {}

/** Bytes of files, by content address (the SHA-256 of the bytes, in hex). */
export class BlobStore extends Context.Tag("@octavo/domain/BlobStore")<BlobStore, {
  /** Keeps the bytes under `key`; keeping the same key twice keeps one copy. */
  readonly put: (key: string, bytes: Uint8Array) => Effect.Effect<void>
  readonly get: (key: string) => Effect.Effect<Option.Option<Uint8Array>>
}>() {}

/** How many change requests a space has: all of them, open ones, drafts. */
export interface ChangeRequestCounts {
  readonly total: number
  readonly open: number
  readonly draft: number
}

export class ChangeRequestRepository extends Context.Tag("@octavo/domain/ChangeRequestRepository")<ChangeRequestRepository, {
  /** Fails with Conflict when the space has a change request with that number already. */
  readonly insert: (changeRequest: ChangeRequest) => Effect.Effect<void, Conflict>
  readonly update: (changeRequest: ChangeRequest) => Effect.Effect<void>
  readonly findById: (id: ChangeRequestId) => Effect.Effect<Option.Option<ChangeRequest>>
  readonly findByNumber: (spaceId: SpaceId, number: number) => Effect.Effect<Option.Option<ChangeRequest>>
  /** The change request of the space whose latest revision is `revisionId` (a merge revision's second parent). */
  readonly findByRevision: (spaceId: SpaceId, revisionId: RevisionId) => Effect.Effect<Option.Option<ChangeRequest>>
  /** The highest number used in the space, 0 when none. */
  readonly lastNumber: (spaceId: SpaceId) => Effect.Effect<number>
  /** Keyset over (createdAt ms, id), newest first. */
  readonly list: (
    spaceId: SpaceId,
    filter: { readonly status?: ChangeRequestStatus | undefined },
    page: PageRequest
  ) => Effect.Effect<Page<ChangeRequest>>
  /** Counts for those of the spaces that have change requests; the others are absent (they count zero). */
  readonly countsFor: (spaceIds: ReadonlyArray<SpaceId>) => Effect.Effect<ReadonlyMap<SpaceId, ChangeRequestCounts>>
}>() {}

/**
 * Keeps what follows spaces' active revisions (the search index) in step with them, inside the
 * unit of work that moves them. Declared here, answered by the search context.
 */
export class ContentIndexer extends Context.Tag("@octavo/domain/ContentIndexer")<ContentIndexer, {
  /** Indexes all of the space's active revision `revisionId`, holding `content`, anew. */
  readonly whole: (spaceId: SpaceId, revisionId: RevisionId, content: RevisionContent) => Effect.Effect<void>
  /** The active revision went from `from` (holding `before`) to `to` (holding `after`) through `delta`. */
  readonly changed: (
    spaceId: SpaceId,
    from: RevisionId,
    to: RevisionId,
    before: RevisionContent,
    after: RevisionContent,
    delta: ContentDelta
  ) => Effect.Effect<void>
  /** Forgets the space. */
  readonly remove: (spaceId: SpaceId) => Effect.Effect<void>
}>() {}

/**
 * Counts the open comments of change requests, for their views. Declared here, answered by the
 * comments context.
 */
export class ChangeRequestComments extends Context.Tag("@octavo/domain/ChangeRequestComments")<ChangeRequestComments, {
  /** The open comments of those of the change requests that have any; the others count zero. */
  readonly openCounts: (changeRequestIds: ReadonlyArray<ChangeRequestId>) => Effect.Effect<ReadonlyMap<ChangeRequestId, number>>
}>() {}

/** The Git commit a revision was imported from (conventions-2.md §8, Revision `git`). */
export interface RevisionGitInfo {
  readonly oid: string
  readonly message: string
  /** Whether Octavo itself made the commit, by an export. */
  readonly createdByService: boolean
  /** `repoCommitURL` + oid, when the import gave a `repoCommitURL`. */
  readonly url?: string | undefined
  readonly ref: string
}

/** A revision with the Git commit it was imported from, if it was. */
export interface RevisionWithOrigin {
  readonly revision: Revision
  readonly git: Option.Option<RevisionGitInfo>
}

/** Revisions with where they came from in Git, which the gitsync context keeps. */
export class RevisionOrigins extends Context.Tag("@octavo/domain/RevisionOrigins")<RevisionOrigins, {
  /** The revision with its origin; none when there is no such revision. */
  readonly find: (revisionId: RevisionId) => Effect.Effect<Option.Option<RevisionWithOrigin>>
}>() {}

/** The storage the content context owns. */
export type ContentPorts = RevisionContentRepository | BlobStore | ChangeRequestRepository
