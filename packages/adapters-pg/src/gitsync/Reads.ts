import * as SqlClient from "@effect/sql/SqlClient"
import { GitSyncFact, GitSyncState, RevisionGit, RevisionGitReads, RevisionId } from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { findOne } from "../shared/Rows.js"
import { jsonArray, pgSpaceFact } from "../spaces/Facts.js"
import { RevisionRow } from "../spaces/RevisionRepository.js"
import { gitSyncStatesOf } from "./GitSyncRepository.js"

/** The spaces' Git Sync states, on views of spaces: one JSON array of them. */
export const PgGitSyncStates = pgSpaceFact(
  GitSyncFact,
  (sql, ids) => sql`(SELECT ${jsonArray(sql, "g.state")} FROM (${gitSyncStatesOf(sql, ids)}) g)`,
  Schema.Array(GitSyncState)
)

/** A revision and the Git metadata it was imported with, in one statement. */
export const PgRevisionGitReads = Layer.effect(
  RevisionGitReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = findOne(
      RevisionId,
      Schema.Struct({ revision: RevisionRow, git: Schema.NullOr(RevisionGit) }),
      (id) =>
        sql`SELECT to_json(r) AS revision, g.git FROM revisions r
          LEFT JOIN gitsync_revisions g ON g.revision_id = r.id WHERE r.id = ${id}`
    )
    return RevisionGitReads.of({
      find: (revisionId) => Effect.map(find(revisionId), Option.map(({ git, revision }) => ({ revision, git: Option.fromNullable(git) })))
    })
  })
)
