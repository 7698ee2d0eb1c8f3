import { Context, Effect, Layer, Option } from "effect"
import { type RevisionGitInfo, RevisionOrigins } from "../content/Ports.js"
import type { RevisionId } from "../shared/Ids.js"
import { RevisionRepository } from "../spaces/Ports.js"
import type { Revision } from "../spaces/Space.js"
import type { RevisionGit } from "./GitSync.js"
import { GitSyncRepository } from "./Ports.js"

/**
 * A revision as `RevisionRepository.findById` answers it, with its Git metadata as `GitSyncRepository.findRevision`
 * does. A storage that can read both in one round trip answers it so; the others with `RevisionGitReadsOneByOne`.
 */
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

/** The commit an imported revision came from, as the content context shows it. */
export const gitInfoOf = ({ revisionId: _, spaceId: __, ...git }: RevisionGit): RevisionGitInfo => git

/** The content context's `RevisionOrigins`, answered by gitsync over the revision and its commit read at once. */
export const RevisionOriginsLive = Layer.effect(
  RevisionOrigins,
  Effect.map(RevisionGitReads, (reads) =>
    RevisionOrigins.of({
      find: (revisionId) =>
        Effect.map(reads.find(revisionId), Option.map(({ git, revision }) => ({ revision, git: Option.map(git, gitInfoOf) })))
    }))
)
