import type * as SqlClient from "@effect/sql/SqlClient"
import type { GitSyncPorts } from "@octavo/domain"
import { Layer } from "effect"
import { GitSyncRepositoryLive, SiteGitSyncRepositoryLive } from "./GitSyncRepository.js"
import { gitsyncMigrations } from "./migrations.js"
import { PgGitSyncStates, PgRevisionGitReads } from "./Reads.js"
import { pgContext } from "../shared/Context.js"

/** The gitsync context's storage: each space's sync state and the Git metadata of imported revisions. */
export const PgGitSync: Layer.Layer<GitSyncPorts, never, SqlClient.SqlClient> = Layer.merge(
  GitSyncRepositoryLive,
  SiteGitSyncRepositoryLive
)

export { gitsyncMigrations } from "./migrations.js"
export { GitSyncRepositoryLive, SiteGitSyncRepositoryLive } from "./GitSyncRepository.js"
export { PgGitSyncStates, PgRevisionGitReads } from "./Reads.js"

/** The gitsync context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgGitSyncContext = pgContext({
  storage: Layer.mergeAll(PgGitSync, PgRevisionGitReads),
  migrations: gitsyncMigrations,
  spaceFacts: [PgGitSyncStates]
})
