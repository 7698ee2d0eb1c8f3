import { Direction, OperationStage as Stage, OperationState } from "@octavo/domain"
import { Schema } from "effect"

// GitBook's `GitSyncState` is a space's `gitSync` first: the spaces context states it.
export { GitSyncStateObject } from "../spaces/Wire.js"

/** One space's part of a site operation: GitBook's `GitSyncSpaceOperation` (its counters are always 0 there too). */
export const GitSyncSpaceOperationObject = Schema.Struct({
  state: OperationState,
  direction: Direction,
  stage: Stage,
  dispatchedTasks: Schema.Number,
  completedTasks: Schema.Number,
  startedAt: Schema.String,
  updatedAt: Schema.String,
  completedAt: Schema.optional(Schema.String),
  error: Schema.optional(Schema.String)
})

/** GitBook's `GitSyncSiteOperation`. */
export const GitSyncSiteOperationObject = Schema.Struct({
  ...GitSyncSpaceOperationObject.omit("dispatchedTasks", "completedTasks").fields,
  spaces: Schema.Record({ key: Schema.String, value: GitSyncSpaceOperationObject })
})

/** A site's Git Sync: the repository it syncs with and its last operation. */
export const SiteGitSyncStateObject = Schema.Struct({
  object: Schema.Literal("site-git-sync"),
  repoName: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String),
  ref: Schema.optional(Schema.String),
  projectDirectory: Schema.String,
  configPath: Schema.optional(Schema.String),
  commit: Schema.optional(Schema.String),
  updatedAt: Schema.String,
  operation: GitSyncSiteOperationObject
})
export type SiteGitSyncStateObject = typeof SiteGitSyncStateObject.Type
