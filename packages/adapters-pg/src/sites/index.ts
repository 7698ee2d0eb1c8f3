import type * as SqlClient from "@effect/sql/SqlClient"
import type { SitesPorts } from "@octavo/domain"
import { Layer } from "effect"
import { ShareLinkRepositoryLive } from "./ShareLinkRepository.js"
import { SiteRedirectRepositoryLive } from "./SiteRedirectRepository.js"
import { SiteRepositoryLive } from "./SiteRepository.js"
import { SiteStructureRepositoryLive } from "./SiteStructureRepository.js"
import { sitesMigrations } from "./migrations.js"
import { PgPublishedPlaces, PgSiteReads, PgSiteTreeRowReads } from "./Reads.js"
import { pgContext } from "../shared/Context.js"

/** The sites context's storage: sites, their sections, section groups and site spaces, their share links and redirects. */
export const PgSites: Layer.Layer<SitesPorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  SiteRepositoryLive,
  SiteStructureRepositoryLive,
  ShareLinkRepositoryLive,
  SiteRedirectRepositoryLive
)

export { sitesMigrations } from "./migrations.js"
export { ShareLinkRepositoryLive } from "./ShareLinkRepository.js"
export { SiteRedirectRepositoryLive } from "./SiteRedirectRepository.js"
export { SiteRepositoryLive } from "./SiteRepository.js"
export { SiteStructureRepositoryLive } from "./SiteStructureRepository.js"
export { PgPublishedPlaces, PgSiteReads, PgSiteTreeRowReads } from "./Reads.js"

/** The sites context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgSitesContext = pgContext({
  storage: Layer.mergeAll(PgSites, PgSiteTreeRowReads, PgSiteReads),
  migrations: sitesMigrations,
  spaceFacts: [PgPublishedPlaces]
})
