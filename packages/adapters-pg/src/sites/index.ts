import type * as SqlClient from "@effect/sql/SqlClient"
import type { SitesPorts } from "@octavo/domain"
import { Layer } from "effect"
import { ShareLinkRepositoryLive } from "./ShareLinkRepository.js"
import { SiteRepositoryLive } from "./SiteRepository.js"
import { SiteStructureRepositoryLive } from "./SiteStructureRepository.js"

/** The sites context's storage: sites, their sections, section groups and site spaces, and their share links. */
export const PgSites: Layer.Layer<SitesPorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  SiteRepositoryLive,
  SiteStructureRepositoryLive,
  ShareLinkRepositoryLive
)

export { sitesMigrations, sitesSchemaOrderMigration } from "./migrations.js"
export { ShareLinkRepositoryLive } from "./ShareLinkRepository.js"
export { SiteRepositoryLive } from "./SiteRepository.js"
export { SiteStructureRepositoryLive } from "./SiteStructureRepository.js"
export { PgPublishedPlaces, PgSiteReads, PgSiteTreeRowReads } from "./Reads.js"
