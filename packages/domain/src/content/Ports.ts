import { Context, Effect, Option } from "effect"
import type { Conflict } from "../shared/Errors.js"
import type { User } from "../identity/User.js"
import type { ChangeRequestId, PageId, RevisionId, SpaceId, UserId } from "../shared/Ids.js"
import type { Page, PageRequest } from "../shared/Pagination.js"
import type { ChangeRequest, ChangeRequestStatus } from "./ChangeRequest.js"
import type { ItemForAccess } from "../spaces/Ports.js"
import type { Revision, Space } from "../spaces/Space.js"
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

/** What a view of change requests shows of later contexts: their authors and their open comments. */
export interface ChangeRequestFacts {
  /** The authors that exist, by id. */
  readonly authors: ReadonlyMap<UserId, User>
  /** The open comments of those of the change requests that have any; the others count zero. */
  readonly openComments: ReadonlyMap<ChangeRequestId, number>
}

/**
 * What change requests' views are made of besides the change requests, from the users' and the
 * comments' storage. A storage that can read both in one round trip answers it so; the others
 * answer it with `ChangeRequestViewFactsOneByOne` (comments/Reads.ts).
 */
export class ChangeRequestViewFacts extends Context.Tag("@octavo/domain/ChangeRequestViewFacts")<ChangeRequestViewFacts, {
  readonly of: (changeRequests: ReadonlyArray<ChangeRequest>) => Effect.Effect<ChangeRequestFacts>
}>() {}

/** A change request of a space, by its id or by its number in the space. */
export type ChangeRequestKey = { readonly id: ChangeRequestId } | { readonly number: number }

/** A space read with its access, and one of its change requests. */
export interface SpaceWithChangeRequest extends ItemForAccess<Space> {
  /** None when the space has no change request of that key. */
  readonly changeRequest: Option.Option<ChangeRequest>
}

/**
 * A space with what access to it is decided from, and one of its change requests: what every
 * use case on a change request reads first. A storage that can read both in one round trip
 * answers it so; the others answer it with `SpaceChangeRequestReadsOneByOne` (Reads.ts).
 */
export class SpaceChangeRequestReads extends Context.Tag("@octavo/domain/SpaceChangeRequestReads")<SpaceChangeRequestReads, {
  /** As `SpaceRepository.findForAccess` answers, with the change request of `key` when it is the space's. */
  readonly find: (spaceId: SpaceId, userId: UserId, key: ChangeRequestKey) => Effect.Effect<Option.Option<SpaceWithChangeRequest>>
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
