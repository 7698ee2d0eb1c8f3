import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Effect } from "effect"
import { commentsMigrations } from "./comments/index.js"
import { sitesMigrations, sitesSchemaOrderMigration } from "./sites/index.js"
import { insightEventKeysMigration, insightRollupMigration, insightsMigrations } from "./insights/index.js"
import { integrationsMigrations } from "./integrations/index.js"
import { gitsyncMigrations } from "./gitsync/index.js"
import { contentMigrations, pageParentsMigration } from "./content/index.js"
import { identityMigrations } from "./identity/index.js"
import { guestInvitesMigration, organizationsMigrations } from "./organizations/index.js"
import { searchMigrations, searchPageContextMigration } from "./search/index.js"
import { type Migration, migrateTo } from "./shared/index.js"
import { defaultLevelsAndIconsMigration, spacesMigrations } from "./spaces/index.js"
import { openapiMigrations } from "./openapi/index.js"
import { ssoMigrations } from "./sso/index.js"
import { translationsMigrations } from "./translations/index.js"

/**
 * Every migration, in the order they apply (their ids' order): each context's first ones, in the
 * order of the contexts, then those added since, each kept in its context's folder.
 * Append; never edit one that has shipped (a database records the ids it has applied).
 */
export const migrations: ReadonlyArray<Migration> = [
  ...identityMigrations,
  ...organizationsMigrations,
  ...spacesMigrations,
  ...contentMigrations,
  ...searchMigrations,
  defaultLevelsAndIconsMigration,
  searchPageContextMigration,
  guestInvitesMigration,
  ...commentsMigrations,
  ...sitesMigrations,
  ...insightsMigrations,
  sitesSchemaOrderMigration,
  ...ssoMigrations,
  ...translationsMigrations,
  ...openapiMigrations,
  ...integrationsMigrations,
  ...gitsyncMigrations,
  insightRollupMigration,
  pageParentsMigration,
  insightEventKeysMigration
]

/** Brings the schema up to date: applies the migrations a database has not recorded. */
export const migrate: Effect.Effect<void, SqlError, SqlClient.SqlClient> = migrateTo(migrations)
