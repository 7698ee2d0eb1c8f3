import { Cause, Clock, Effect, Option, Schema } from "effect"
import { ContentFiles } from "../content/ContentFileService.js"
import type { RevisionContent } from "../content/Page.js"
import { BlobStore } from "../content/Ports.js"
import type { User } from "../identity/User.js"
import type { RevisionId, SpaceId } from "../shared/Ids.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { configOf, contentRootOf, joinPath } from "./Format.js"
import type { Direction, GitSyncState, OperationStage, Remote } from "./GitSync.js"
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
  /** A working copy already open (a site's operation shares one among its spaces): fetched again, not cloned again. */
  readonly session?: GitSession | undefined
}

/** What an operation ended with, before it is recorded. */
export interface Outcome {
  readonly revision?: RevisionId | undefined
  readonly commit?: string | undefined
  /** The blob key of the branch's new manifest, when the operation changed it. */
  readonly manifest?: string | undefined
}

/** The paths Octavo owns in a branch: the files it imported or exported as pages, assets, includes and SUMMARY.md. */
const Manifest = Schema.parseJson(Schema.Struct({ paths: Schema.Array(Schema.String) }))
const encodeManifest = Schema.encodeSync(Manifest)
const decodeManifest = Schema.decodeUnknownOption(Manifest)
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The paths a content's pages and files came from or went to (their \`git.path\`), and SUMMARY.md. */
export const pathsOf = (content: RevisionContent, summaryPath: string): Set<string> => {
  const paths = new Set<string>([summaryPath])
  for (const page of content.pages.values()) if (page.git !== undefined) paths.add(page.git.path)
  for (const file of content.files.values()) if (file.git !== undefined) paths.add(file.git.path)
  return paths
}

/** Keeping and reading manifests, as blobs beside the files' bytes. */
export const makeManifests = Effect.gen(function*() {
  const contentFiles = yield* ContentFiles
  const blobs = yield* BlobStore
  return {
    store: (paths: Iterable<string>) => contentFiles.storeBlob(encoder.encode(encodeManifest({ paths: Array.from(paths).sort() }))),
    /** The paths of a state's manifest; empty when it has none (a sync older than manifests, or none yet). */
    read: (state: GitSyncState | undefined) =>
      state?.manifest === undefined ? Effect.succeed(new Set<string>()) : Effect.map(blobs.get(state.manifest), (found) =>
        new Set(
          Option.match(Option.flatMap(found, (bytes) => decodeManifest(decoder.decode(bytes))), {
            onNone: () => [],
            onSome: (manifest) => manifest.paths
          })
        ))
  } as const
})

/** How often a running operation's progress is written, at most. */
const PROGRESS_MS = 250

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

  /**
   * Where a running operation is: its stage, and how far its files are. Told at most every PROGRESS_MS (the stage
   * each time it changes), and only while the space's operation is running (a standalone export records none).
   */
  const told = new Map<SpaceId, number>()
  const report = (spaceId: SpaceId, stage: OperationStage, progress?: { readonly done: number; readonly total: number }) =>
    Effect.gen(function*() {
      const at = yield* Clock.currentTimeMillis
      if (progress !== undefined && progress.done < progress.total && at - (told.get(spaceId) ?? 0) < PROGRESS_MS) return
      if (progress === undefined || progress.done < progress.total) told.set(spaceId, at)
      else told.delete(spaceId)
      yield* record(spaceId, (s) =>
        s.operation?.state === "running"
          ? { ...s, operation: { ...s.operation, stage, ...(progress !== undefined ? { progress } : {}) } }
          : s)
    })

  return { stateOf, record, report } as const
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

/** Failure sentences of an operation: Git's (already redacted) and the domain's. */
export const sentenceOf = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.failureOption(cause)
  if (Option.isNone(failure)) return "The operation stopped on an internal error"
  const error = failure.value as { readonly _tag?: string; readonly reason?: string; readonly message?: string }
  return error.reason ?? error.message ?? String(failure.value)
}
