import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { mergeAllOf, type StoragePorts } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { PgCommentsContext } from "./comments/index.js"
import { PgContentContext } from "./content/index.js"
import { PgGitSyncContext } from "./gitsync/index.js"
import { PgIdentityContext } from "./identity/index.js"
import { PgInsightsContext } from "./insights/index.js"
import { PgIntegrationsContext } from "./integrations/index.js"
import { PgOpenAPIContext } from "./openapi/index.js"
import { PgOrganizationsContext } from "./organizations/index.js"
import { PgSearchContext } from "./search/index.js"
import { type Migration, migrateTo, PgSharedContext } from "./shared/index.js"
import { PgSitesContext } from "./sites/index.js"
import { pgSpaceFactRows, PgSpacesContext } from "./spaces/index.js"
import { PgSsoContext } from "./sso/index.js"
import { PgTranslationsContext } from "./translations/index.js"

/** The contexts in the domain's order (packages/domain/src/Services.ts), each its folder's one export. */
const contexts = [
  PgSharedContext,
  PgIdentityContext,
  PgOrganizationsContext,
  PgSpacesContext,
  PgContentContext,
  PgSearchContext,
  PgCommentsContext,
  PgSitesContext,
  PgInsightsContext,
  PgSsoContext,
  PgTranslationsContext,
  PgOpenAPIContext,
  PgIntegrationsContext,
  PgGitSyncContext
]

/**
 * Every migration in the order they apply, their ids' order, whichever context's folder keeps each.
 * Append; never edit one that has shipped (a database records the ids it has applied).
 */
export const migrations: ReadonlyArray<Migration> = contexts.flatMap((context) => context.migrations).sort((a, b) => a.id - b.id)

/** Brings the schema up to date: applies the migrations a database has not recorded. */
export const migrate: Effect.Effect<void, SqlError, SqlClient.SqlClient> = migrateTo(migrations)

/** Brings the schema up to date before anything uses it. */
export const MigrationsLive: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.effectDiscard(Effect.orDie(migrate))

/**
 * Every storage port over a SqlClient (Postgres server or PGlite): each context's, with the reads it answers in one
 * statement, and what later contexts show on views of spaces read at once from the columns they contribute; building
 * it runs the migrations.
 */
export const PgStorage: Layer.Layer<StoragePorts, never, SqlClient.SqlClient> = mergeAllOf(contexts.map((context) => context.storage)).pipe(
  Layer.provideMerge(pgSpaceFactRows(contexts.flatMap((context) => context.spaceFacts))),
  Layer.provide(MigrationsLive)
)
