import type * as SqlClient from "@effect/sql/SqlClient"
import type { OpenAPIPorts } from "@octavo/domain"
import { Layer } from "effect"
import { OpenAPISpecRepositoryLive, OpenAPISpecVersionRepositoryLive } from "./OpenAPIRepository.js"
import { openapiMigrations } from "./migrations.js"
import { pgContext } from "../shared/Context.js"

/** The openapi context's storage: specs, the jobs of URL specs, and versions with their texts. */
export const PgOpenAPI: Layer.Layer<OpenAPIPorts, never, SqlClient.SqlClient> = Layer.merge(
  OpenAPISpecRepositoryLive,
  OpenAPISpecVersionRepositoryLive
)

export { OpenAPISpecRepositoryLive, OpenAPISpecVersionRepositoryLive } from "./OpenAPIRepository.js"
export { openapiMigrations } from "./migrations.js"

/** The openapi context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgOpenAPIContext = pgContext({
  storage: PgOpenAPI,
  migrations: openapiMigrations
})
