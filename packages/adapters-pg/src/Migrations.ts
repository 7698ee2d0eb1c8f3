import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Effect } from "effect"
import { contentMigrations } from "./content/index.js"
import { identityMigrations } from "./identity/index.js"
import { organizationsMigrations } from "./organizations/index.js"
import { searchMigrations } from "./search/index.js"
import { type Migration, migrateTo } from "./shared/index.js"
import { spacesMigrations } from "./spaces/index.js"

/**
 * Every migration, in the order they apply: each context's, in the order of the contexts.
 * Append; never edit one that has shipped (a database records the ids it has applied).
 */
export const migrations: ReadonlyArray<Migration> = [
  ...identityMigrations,
  ...organizationsMigrations,
  ...spacesMigrations,
  ...contentMigrations,
  ...searchMigrations
]

/** Brings the schema up to date: applies the migrations a database has not recorded. */
export const migrate: Effect.Effect<void, SqlError, SqlClient.SqlClient> = migrateTo(migrations)
