import type * as SqlClient from "@effect/sql/SqlClient"
import type { StoragePorts } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { PgComments } from "./comments/index.js"
import { PgContent } from "./content/index.js"
import { PgGitSync } from "./gitsync/index.js"
import { PgIdentity } from "./identity/index.js"
import { migrate } from "./Migrations.js"
import { PgOrganizations } from "./organizations/index.js"
import { PgSearch } from "./search/index.js"
import { PgShared } from "./shared/index.js"
import { PgSites } from "./sites/index.js"
import { PgInsights } from "./insights/index.js"
import { PgIntegrations } from "./integrations/index.js"
import { PgReadTogether } from "./ReadTogether.js"
import { PgSpaces } from "./spaces/index.js"
import { PgOpenAPI } from "./openapi/index.js"
import { PgSso } from "./sso/index.js"
import { PgTranslations } from "./translations/index.js"

/** Brings the schema up to date before anything uses it. */
export const MigrationsLive: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.effectDiscard(Effect.orDie(migrate))

/**
 * Every storage port over a SqlClient (Postgres server or PGlite), context by context, and the reads
 * of several contexts at once, each in one statement; building it runs the migrations.
 */
export const PgStorage: Layer.Layer<StoragePorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  PgShared,
  PgIdentity,
  PgOrganizations,
  PgSpaces,
  PgContent,
  PgSearch,
  PgComments,
  PgSites,
  PgInsights,
  PgSso,
  PgTranslations,
  PgOpenAPI,
  PgIntegrations,
  PgGitSync,
  PgReadTogether
).pipe(Layer.provide(MigrationsLive))
