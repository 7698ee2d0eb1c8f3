import type * as SqlClient from "@effect/sql/SqlClient"
import type { GitSyncPorts } from "@octavo/domain"
import type { Layer } from "effect"
import { GitSyncRepositoryLive } from "./GitSyncRepository.js"

/** The gitsync context's storage: each space's sync state and the Git metadata of imported revisions. */
export const PgGitSync: Layer.Layer<GitSyncPorts, never, SqlClient.SqlClient> = GitSyncRepositoryLive

export { gitsyncMigrations } from "./migrations.js"
export { GitSyncRepositoryLive } from "./GitSyncRepository.js"
export { PgGitSyncStates, PgRevisionGitReads } from "./Reads.js"
