import type * as SqlClient from "@effect/sql/SqlClient"
import type { StoragePorts } from "@octavo/domain"
import { Effect, Layer } from "effect"
import {
  PgChangeRequestViewFacts,
  PgComments,
  PgCommentViewFacts,
  PgOpenComments,
  PgSpaceCommentReads
} from "./comments/index.js"
import { PgChangeRequestCounts, PgContent, PgSpaceChangeRequestReads } from "./content/index.js"
import { PgGitSync, PgGitSyncStates, PgRevisionGitReads } from "./gitsync/index.js"
import { PgIdentity } from "./identity/index.js"
import { migrate } from "./Migrations.js"
import { PgOrganizations } from "./organizations/index.js"
import { PgSearch } from "./search/index.js"
import { PgShared } from "./shared/index.js"
import { PgPublishedPlaces, PgSiteReads, PgSites, PgSiteTreeRowReads } from "./sites/index.js"
import { PgInsights } from "./insights/index.js"
import { PgIntegrations } from "./integrations/index.js"
import { pgSpaceFactRows, PgSpaces } from "./spaces/index.js"
import { PgOpenAPI } from "./openapi/index.js"
import { PgSso } from "./sso/index.js"
import { PgTranslations } from "./translations/index.js"

/** Brings the schema up to date before anything uses it. */
export const MigrationsLive: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.effectDiscard(Effect.orDie(migrate))

/** What later contexts show on views of spaces, each fact's column contributed from its context's folder. */
const SpaceFactRowsLive = pgSpaceFactRows([PgChangeRequestCounts, PgOpenComments, PgPublishedPlaces, PgGitSyncStates])

/**
 * The reads that take several contexts' rows, each in one statement: each in the folder of the context that declares
 * or answers its port.
 */
const PgReads = Layer.mergeAll(
  PgSiteTreeRowReads,
  PgRevisionGitReads,
  PgSpaceChangeRequestReads,
  PgSpaceCommentReads,
  PgChangeRequestViewFacts,
  PgCommentViewFacts,
  PgSiteReads
).pipe(Layer.provideMerge(SpaceFactRowsLive))

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
  PgReads
).pipe(Layer.provide(MigrationsLive))
