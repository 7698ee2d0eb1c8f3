import type * as SqlClient from "@effect/sql/SqlClient"
import type { IntegrationsPorts } from "@octavo/domain"
import { Layer } from "effect"
import { InstallationRepositoryLive, IntegrationRepositoryLive } from "./IntegrationRepository.js"
import { integrationsMigrations } from "./migrations.js"
import { pgContext } from "../shared/Context.js"

/** The integrations context's storage: integrations, their versions and their installations. */
export const PgIntegrations: Layer.Layer<IntegrationsPorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  IntegrationRepositoryLive,
  InstallationRepositoryLive
)

export { InstallationRepositoryLive, IntegrationRepositoryLive } from "./IntegrationRepository.js"
export { integrationsMigrations } from "./migrations.js"

/** The integrations context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgIntegrationsContext = pgContext({
  storage: PgIntegrations,
  migrations: integrationsMigrations
})
