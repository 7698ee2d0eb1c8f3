import type * as SqlClient from "@effect/sql/SqlClient"
import type { SsoPorts } from "@octavo/domain"
import type { Layer } from "effect"
import { SamlProviderRepositoryLive } from "./SamlProviderRepository.js"
import { ssoMigrations } from "./migrations.js"
import { pgContext } from "../shared/Context.js"

/** The sso context's storage: organizations' SAML providers. */
export const PgSso: Layer.Layer<SsoPorts, never, SqlClient.SqlClient> = SamlProviderRepositoryLive

export { ssoMigrations } from "./migrations.js"
export { SamlProviderRepositoryLive } from "./SamlProviderRepository.js"

/** The sso context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgSsoContext = pgContext({
  storage: PgSso,
  migrations: ssoMigrations
})
