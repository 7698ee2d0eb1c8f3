import * as SqlClient from "@effect/sql/SqlClient"
import {
  GitSyncRepository,
  GitSyncState,
  RevisionGit,
  RevisionId,
  SiteGitSyncRepository,
  SiteGitSyncState,
  SiteId,
  SpaceId
} from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { execute, findAll, findOne, Jsonb } from "../shared/Rows.js"
import { type Ids, oneOf } from "../shared/Sql.js"

// The state is one document: the domain schema's encoded form, read whole.
const StateRow = Schema.Struct({ state: Jsonb(GitSyncState) })
const RevisionRow = Schema.Struct({ git: Jsonb(RevisionGit) })
const SiteStateRow = Schema.Struct({ state: Jsonb(SiteGitSyncState) })

/** The sync states of those of the spaces that have one, each a `state` column of `GitSyncState`'s encoded form. */
export const gitSyncStatesOf = (sql: SqlClient.SqlClient, spaceIds: Ids) =>
  sql`SELECT state FROM gitsync_states WHERE ${oneOf(sql, "space_id", spaceIds)}`

export const GitSyncRepositoryLive = Layer.effect(
  GitSyncRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const stateOf = Schema.transform(StateRow, Schema.typeSchema(GitSyncState), {
      strict: true,
      decode: (row) => row.state,
      encode: (state) => ({ state })
    })
    const gitOf = Schema.transform(RevisionRow, Schema.typeSchema(RevisionGit), {
      strict: true,
      decode: (row) => row.git,
      encode: (git) => ({ git })
    })
    const save = execute(GitSyncState, (state) =>
      sql`INSERT INTO gitsync_states (space_id, running, state)
        VALUES (${state.spaceId}, ${state.operation?.state === "running"}, ${JSON.stringify(state)}::jsonb)
        ON CONFLICT (space_id) DO UPDATE SET running = EXCLUDED.running, state = EXCLUDED.state`)
    const findMany = findAll(
      Schema.Array(SpaceId),
      stateOf,
      (ids) => gitSyncStatesOf(sql, ids)
    )
    return GitSyncRepository.of({
      find: findOne(SpaceId, stateOf, (id) => sql`SELECT state FROM gitsync_states WHERE space_id = ${id}`),
      findMany: (spaceIds) => (spaceIds.length === 0 ? Effect.succeed([]) : findMany(spaceIds)),
      save,
      // A transaction-scoped advisory lock: requests for one space take turns, other spaces do not wait.
      lock: (spaceId) => sql`SELECT pg_advisory_xact_lock(hashtext(${`gitsync:${spaceId}`}))`.pipe(Effect.asVoid, Effect.orDie),
      running: () => findAll(Schema.Void, stateOf, () => sql`SELECT state FROM gitsync_states WHERE running`)(undefined),
      saveRevision: execute(
        RevisionGit,
        (git) =>
          sql`INSERT INTO gitsync_revisions (revision_id, space_id, git) VALUES (${git.revisionId}, ${git.spaceId}, ${
            JSON.stringify(git)
          }::jsonb)
          ON CONFLICT (revision_id) DO UPDATE SET git = EXCLUDED.git`
      ),
      findRevision: findOne(RevisionId, gitOf, (id) => sql`SELECT git FROM gitsync_revisions WHERE revision_id = ${id}`)
    })
  })
)

export const SiteGitSyncRepositoryLive = Layer.effect(
  SiteGitSyncRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const stateOf = Schema.transform(SiteStateRow, Schema.typeSchema(SiteGitSyncState), {
      strict: true,
      decode: (row) => row.state,
      encode: (state) => ({ state })
    })
    return SiteGitSyncRepository.of({
      find: findOne(SiteId, stateOf, (id) => sql`SELECT state FROM gitsync_site_states WHERE site_id = ${id}`),
      save: execute(SiteGitSyncState, (state) =>
        sql`INSERT INTO gitsync_site_states (site_id, running, state)
          VALUES (${state.siteId}, ${state.operation?.state === "running"}, ${JSON.stringify(state)}::jsonb)
          ON CONFLICT (site_id) DO UPDATE SET running = EXCLUDED.running, state = EXCLUDED.state`),
      lock: (siteId) => sql`SELECT pg_advisory_xact_lock(hashtext(${`gitsync-site:${siteId}`}))`.pipe(Effect.asVoid, Effect.orDie),
      running: () => findAll(Schema.Void, stateOf, () => sql`SELECT state FROM gitsync_site_states WHERE running`)(undefined)
    })
  })
)
