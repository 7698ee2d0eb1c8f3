import { Effect, Option } from "effect"
import type { User } from "../identity/User.js"
import type { RevisionId, SpaceId } from "../shared/Ids.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { configOf, contentRootOf, joinPath } from "./Format.js"
import type { Direction, GitSyncState, Remote } from "./GitSync.js"
import { type GitSession, GitSyncRepository, type Snapshot } from "./Ports.js"

/** An operation accepted and waiting for its turn; its credentials live only here, in memory. */
export interface Job {
  readonly spaceId: SpaceId
  readonly direction: Direction
  readonly remote: Remote
  readonly timestamp: Date
  readonly force: boolean
  readonly standalone: boolean
  readonly projectDirectory: string
  readonly commitURL: string | undefined
  readonly commitMessage: string
  readonly actor: User
  readonly startedAt: Date
}

/** What an operation ended with, before it is recorded. */
export interface Outcome {
  readonly revision?: RevisionId | undefined
  readonly commit?: string | undefined
}

/** What the gitsync context's services share: reading a space's sync state and changing it under its lock. */
export const makeGitSyncWork = Effect.gen(function*() {
  const states = yield* GitSyncRepository
  const uow = yield* UnitOfWork

  const stateOf = (spaceId: SpaceId) => Effect.map(states.find(spaceId), Option.getOrUndefined)

  const record = (spaceId: SpaceId, change: (state: GitSyncState) => GitSyncState) =>
    uow.transaction(Effect.gen(function*() {
      yield* states.lock(spaceId)
      const at = yield* now
      const current = (yield* stateOf(spaceId)) ?? { spaceId, updatedAt: at }
      yield* states.save(change(current))
    }))

  return { stateOf, record } as const
})

/** The files of a snapshot an import or an export reads, within GIT_LIMITS. */
export const readProject = (session: GitSession, snapshot: Snapshot, projectDirectory: string) =>
  Effect.gen(function*() {
    const configEntry = snapshot.entries.find((e) => e.path === joinPath(projectDirectory, ".gitbook.yaml"))
    const configFiles = configEntry === undefined ? new Map<string, Uint8Array>() : yield* session.read([configEntry])
    const config = configOf(configFiles, projectDirectory)
    const root = contentRootOf(projectDirectory, config)
    return { config, root, configFiles }
  })
