import { Context, Effect, Layer, Option } from "effect"
import { withOpenComments } from "./comments/ForSpaces.js"
import { CommentRepository, CommentViewFacts, SpaceCommentReads } from "./comments/Ports.js"
import { findByKey } from "./content/ChangeRequest.js"
import { spaceCountsOf } from "./content/ForSpaces.js"
import {
  type ChangeRequestCounts,
  ChangeRequestRepository,
  ChangeRequestViewFacts,
  RevisionOrigins,
  SpaceChangeRequestReads
} from "./content/Ports.js"
import { gitInfoOf, shownGitSyncs } from "./gitsync/ForSpaces.js"
import type { GitSyncState, RevisionGit } from "./gitsync/GitSync.js"
import { GitSyncRepository } from "./gitsync/Ports.js"
import type { Organization } from "./organizations/Organization.js"
import type { OrganizationId, RevisionId, SiteId, SpaceId } from "./shared/Ids.js"
import { UserRepository } from "./identity/Ports.js"
import type { User } from "./identity/User.js"
import { makePublishedPlaces, readSitesOfSpaces, type SitesOfSpaces } from "./sites/ForSpaces.js"
import { SiteReads, SiteStructureRepository, type SiteTreeRead, SiteTreeReads } from "./sites/Ports.js"
import { CollectionRepository, RevisionRepository, type SpaceFacts, SpaceRepository, SpaceViewFacts } from "./spaces/Ports.js"
import type { Revision } from "./spaces/Space.js"

// Reads that one request makes of several contexts' storage. Each context keeps its own rows and
// its own rules over them; a storage that can read the rows of several in one round trip answers
// the ports here so (issue 19: two round trips for one object, three for a list), and the others
// answer them with the one-by-one layers, which read each context's repository in turn.

/**
 * What the contexts after spaces keep of some spaces, as their storage holds it: what a view of
 * those spaces is made from (`SpaceViewFacts`).
 */
export interface SpaceFactRows {
  /** As `ChangeRequestRepository.countsFor` answers. */
  readonly changeRequests: ReadonlyMap<SpaceId, ChangeRequestCounts>
  /** As `CommentRepository.openCounts` answers. */
  readonly openComments: ReadonlyMap<SpaceId, number>
  /** What sites hold of the spaces, as `readSitesOfSpaces` reads it. */
  readonly sites: SitesOfSpaces
  /** As `GitSyncRepository.findMany` answers. */
  readonly gitSync: ReadonlyArray<GitSyncState>
}

/**
 * Reads the rows of `SpaceFactRows` for many spaces at once. A storage that can read them in one
 * round trip answers it so (a space's view then costs one statement more than its access); the
 * others answer it with `SpaceFactReadsOneByOne`.
 */
export class SpaceFactReads extends Context.Tag("@octavo/domain/SpaceFactReads")<SpaceFactReads, {
  readonly of: (spaceIds: ReadonlyArray<SpaceId>) => Effect.Effect<SpaceFactRows>
}>() {}

/** `SpaceFactReads` over each context's repository, one read after the other. */
export const SpaceFactReadsOneByOne = Layer.effect(
  SpaceFactReads,
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequestRepository
    const comments = yield* CommentRepository
    const sitesOf = yield* readSitesOfSpaces
    const gitSyncs = yield* GitSyncRepository
    return SpaceFactReads.of({
      of: (spaceIds) =>
        Effect.all({
          changeRequests: changeRequests.countsFor(spaceIds),
          openComments: comments.openCounts(spaceIds),
          sites: sitesOf(spaceIds),
          gitSync: gitSyncs.findMany(spaceIds)
        })
    })
  })
)

/**
 * What a view of spaces shows from their `SpaceFactRows`: each context that keeps them turns its rows into it by its
 * own rules (counters, published places, Git Sync).
 */
const makeSpaceFacts = Effect.map(makePublishedPlaces, (placesOf) =>
(
  organization: Organization,
  spaceIds: ReadonlyArray<SpaceId>,
  shareKey: string | undefined,
  rows: SpaceFactRows
): Effect.Effect<SpaceFacts> =>
  Effect.map(placesOf(organization, spaceIds, shareKey, rows.sites), (places) => ({
    counts: withOpenComments(spaceCountsOf(rows.changeRequests), rows.openComments),
    places,
    gitSync: shownGitSyncs(rows.gitSync)
  })))

/** The spaces context's `SpaceViewFacts`, answered by the contexts that keep them, over the rows read at once. */
export const SpaceFactsLive = Layer.effect(
  SpaceViewFacts,
  Effect.gen(function*() {
    const reads = yield* SpaceFactReads
    const factsOf = yield* makeSpaceFacts
    return SpaceViewFacts.of({
      of: (organization, spaceIds, shareKey) =>
        Effect.flatMap(reads.of(spaceIds), (rows) => factsOf(organization, spaceIds, shareKey, rows))
    })
  })
)

/** A site's tree as the storage holds it, with the rows of `SpaceFactRows` of the spaces its site spaces are on. */
export interface SiteTreeRows extends Omit<SiteTreeRead, "facts"> {
  readonly facts: SpaceFactRows
}

/**
 * Reads a site's `SiteTreeRows`. A storage that can read them in one round trip answers it so (a
 * read of a site then costs one statement more than its access); the others answer it with
 * `SiteTreeRowReadsOneByOne`.
 */
export class SiteTreeRowReads extends Context.Tag("@octavo/domain/SiteTreeRowReads")<SiteTreeRowReads, {
  readonly tree: (siteId: SiteId, organizationId: OrganizationId) => Effect.Effect<SiteTreeRows>
}>() {}

/** `SiteTreeRowReads` over the sites', spaces' and collections' repositories and `SpaceFactReads`, one read after the other. */
export const SiteTreeRowReadsOneByOne = Layer.effect(
  SiteTreeRowReads,
  Effect.gen(function*() {
    const structures = yield* SiteStructureRepository
    const spaces = yield* SpaceRepository
    const collections = yield* CollectionRepository
    const facts = yield* SpaceFactReads
    return SiteTreeRowReads.of({
      tree: (siteId, organizationId) =>
        Effect.gen(function*() {
          const structure = yield* structures.load(siteId)
          const onSpaces = [...new Set(structure.siteSpaces.map((s) => s.spaceId))]
          return {
            structure,
            spaces: yield* spaces.findMany(onSpaces),
            collections: yield* collections.listAll(organizationId),
            facts: yield* facts.of(onSpaces)
          }
        })
    })
  })
)

/** The sites context's `SiteTreeReads`, over the rows read at once, with the spaces' facts by their contexts' rules. */
export const SiteTreeReadsLive = Layer.effect(
  SiteTreeReads,
  Effect.gen(function*() {
    const reads = yield* SiteTreeRowReads
    const factsOf = yield* makeSpaceFacts
    return SiteTreeReads.of({
      tree: (site, organization, shareKey) =>
        Effect.gen(function*() {
          const rows = yield* reads.tree(site.id, organization.id)
          const facts = yield* factsOf(organization, rows.spaces.map((s) => s.id), shareKey, rows.facts)
          return { ...rows, facts }
        })
    })
  })
)

/** A revision as `RevisionRepository.findById` answers it, with its Git metadata as `GitSyncRepository.findRevision` does. */
export class RevisionGitReads extends Context.Tag("@octavo/domain/RevisionGitReads")<RevisionGitReads, {
  readonly find: (
    revisionId: RevisionId
  ) => Effect.Effect<Option.Option<{ readonly revision: Revision; readonly git: Option.Option<RevisionGit> }>>
}>() {}

/** `RevisionGitReads` over the spaces' and gitsync's repositories, one read after the other. */
export const RevisionGitReadsOneByOne = Layer.effect(
  RevisionGitReads,
  Effect.gen(function*() {
    const revisions = yield* RevisionRepository
    const gitSyncs = yield* GitSyncRepository
    return RevisionGitReads.of({
      find: (revisionId) =>
        Effect.flatMap(revisions.findById(revisionId), (found) =>
          Option.isNone(found)
            ? Effect.succeedNone
            : Effect.map(gitSyncs.findRevision(revisionId), (git) => Option.some({ revision: found.value, git })))
    })
  })
)

/** The content context's `RevisionOrigins`, answered by gitsync over the rows read at once. */
export const RevisionOriginsLive = Layer.effect(
  RevisionOrigins,
  Effect.map(RevisionGitReads, (reads) =>
    RevisionOrigins.of({
      find: (revisionId) =>
        Effect.map(reads.find(revisionId), Option.map(({ git, revision }) => ({ revision, git: Option.map(git, gitInfoOf) })))
    }))
)

/** `SpaceChangeRequestReads` over the spaces' and the change requests' repositories, one read after the other. */
export const SpaceChangeRequestReadsOneByOne = Layer.effect(
  SpaceChangeRequestReads,
  Effect.gen(function*() {
    const spaces = yield* SpaceRepository
    const changeRequests = yield* ChangeRequestRepository
    return SpaceChangeRequestReads.of({
      find: (spaceId, userId, key) =>
        Effect.flatMap(spaces.findForAccess(spaceId, userId), (found) =>
          Option.isNone(found)
            ? Effect.succeedNone
            : Effect.map(findByKey(changeRequests, spaceId, key), (changeRequest) => Option.some({ ...found.value, changeRequest })))
    })
  })
)

/** `SpaceCommentReads` over `SpaceChangeRequestReads` and the comments' repository, one read after the other. */
export const SpaceCommentReadsOneByOne = Layer.effect(
  SpaceCommentReads,
  Effect.gen(function*() {
    const reads = yield* SpaceChangeRequestReads
    const comments = yield* CommentRepository
    return SpaceCommentReads.of({
      find: (spaceId, userId, key, commentId, replyId) =>
        Effect.flatMap(reads.find(spaceId, userId, key), (found) =>
          Effect.gen(function*() {
            if (Option.isNone(found)) return Option.none()
            const changeRequest = found.value.changeRequest
            const comment = Option.isNone(changeRequest)
              ? Option.none()
              : Option.filter(yield* comments.findById(commentId), (c) => c.changeRequestId === changeRequest.value.id)
            const reply = Option.isNone(comment) || Option.isNone(replyId)
              ? Option.none()
              : Option.filter(yield* comments.findReply(replyId.value), (r) => r.commentId === comment.value.id)
            return Option.some({ ...found.value, comment, reply })
          }))
    })
  })
)

/** The users of `ids` that exist, by id, in one lookup. */
const usersById = (users: UserRepository["Type"], ids: Iterable<User["id"]>) =>
  Effect.map(users.findManyByIds([...new Set(ids)]), (found) => new Map(found.map((user) => [user.id, user])))

/** `ChangeRequestViewFacts` over the users' and the comments' repositories, one read after the other. */
export const ChangeRequestViewFactsOneByOne = Layer.effect(
  ChangeRequestViewFacts,
  Effect.gen(function*() {
    const users = yield* UserRepository
    const comments = yield* CommentRepository
    return ChangeRequestViewFacts.of({
      of: (changeRequests) =>
        Effect.all({
          authors: usersById(users, changeRequests.map((cr) => cr.createdBy)),
          openComments: comments.openByChangeRequest(changeRequests.map((cr) => cr.id))
        })
    })
  })
)

/** `CommentViewFacts` over the comments' and the users' repositories, one read after the other. */
export const CommentViewFactsOneByOne = Layer.effect(
  CommentViewFacts,
  Effect.gen(function*() {
    const users = yield* UserRepository
    const comments = yield* CommentRepository
    return CommentViewFacts.of({
      of: (asked) =>
        Effect.gen(function*() {
          const reactions = yield* comments.reactionsOf(asked.subjects)
          const repliers = yield* comments.repliersOf(asked.repliersOf)
          const people = yield* usersById(users, [
            ...asked.users,
            ...[...reactions.values()].flat().map((r) => r.userId),
            ...[...repliers.values()].flat().map((r) => r.userId)
          ])
          return { reactions, repliers, users: people }
        })
    })
  })
)

/** `SiteReads` over the sites' and the spaces' repositories, one read after the other. */
export const SiteReadsOneByOne = Layer.effect(
  SiteReads,
  Effect.gen(function*() {
    const structures = yield* SiteStructureRepository
    const spaces = yield* SpaceRepository
    return SiteReads.of({
      spacesOf: (siteIds) =>
        Effect.flatMap(
          structures.spacesOf(siteIds),
          (held) => Effect.map(spaces.findMany([...new Set(held.map((h) => h.spaceId))]), (found) => ({ held, spaces: found }))
        )
    })
  })
)

/** What a storage answers by reading each context's repository in turn. */
export const ReadTogetherOneByOne = Layer.mergeAll(
  SpaceFactReadsOneByOne,
  SiteTreeRowReadsOneByOne.pipe(Layer.provide(SpaceFactReadsOneByOne)),
  RevisionGitReadsOneByOne,
  SpaceChangeRequestReadsOneByOne,
  SpaceCommentReadsOneByOne.pipe(Layer.provide(SpaceChangeRequestReadsOneByOne)),
  ChangeRequestViewFactsOneByOne,
  CommentViewFactsOneByOne,
  SiteReadsOneByOne
)

/** The ports of earlier contexts answered from reads of several contexts at once. */
export const ReadTogetherAnswers = Layer.mergeAll(SpaceFactsLive, RevisionOriginsLive, SiteTreeReadsLive)
