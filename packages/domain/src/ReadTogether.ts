import { Context, Effect, Layer, Option } from "effect"
import { withOpenComments } from "./comments/ForSpaces.js"
import { CommentRepository } from "./comments/Ports.js"
import { spaceCountsOf } from "./content/ForSpaces.js"
import { type ChangeRequestCounts, ChangeRequestRepository, RevisionOrigins } from "./content/Ports.js"
import { gitInfoOf, shownGitSyncs } from "./gitsync/ForSpaces.js"
import type { GitSyncState, RevisionGit } from "./gitsync/GitSync.js"
import { GitSyncRepository } from "./gitsync/Ports.js"
import type { RevisionId, SpaceId } from "./shared/Ids.js"
import { makePublishedPlaces, readSitesOfSpaces, type SitesOfSpaces } from "./sites/ForSpaces.js"
import { RevisionRepository, SpaceViewFacts } from "./spaces/Ports.js"
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
 * The spaces context's `SpaceViewFacts`, answered by the contexts that keep them: each turns its
 * rows into what a view shows by its own rules (counters, published places, Git Sync), over the
 * rows read at once.
 */
export const SpaceFactsLive = Layer.effect(
  SpaceViewFacts,
  Effect.gen(function*() {
    const reads = yield* SpaceFactReads
    const placesOf = yield* makePublishedPlaces
    return SpaceViewFacts.of({
      of: (organization, spaceIds, shareKey) =>
        Effect.gen(function*() {
          const rows = yield* reads.of(spaceIds)
          return {
            counts: withOpenComments(spaceCountsOf(rows.changeRequests), rows.openComments),
            places: yield* placesOf(organization, spaceIds, shareKey, rows.sites),
            gitSync: shownGitSyncs(rows.gitSync)
          }
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

/** What a storage answers by reading each context's repository in turn. */
export const ReadTogetherOneByOne = Layer.merge(SpaceFactReadsOneByOne, RevisionGitReadsOneByOne)

/** The ports of earlier contexts answered from reads of several contexts at once. */
export const ReadTogetherAnswers = Layer.merge(SpaceFactsLive, RevisionOriginsLive)
