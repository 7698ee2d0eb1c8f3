import type * as SqlClient from "@effect/sql/SqlClient"
import type { OpenAPIPorts } from "@octavo/domain"
import { Layer } from "effect"
import { OpenAPISpecRepositoryLive, OpenAPISpecVersionRepositoryLive } from "./OpenAPIRepository.js"

/** The openapi context's storage: specs, the jobs of URL specs, and versions with their texts. */
export const PgOpenAPI: Layer.Layer<OpenAPIPorts, never, SqlClient.SqlClient> = Layer.merge(
  OpenAPISpecRepositoryLive,
  OpenAPISpecVersionRepositoryLive
)

export { OpenAPISpecRepositoryLive, OpenAPISpecVersionRepositoryLive } from "./OpenAPIRepository.js"
export { openapiMigrations } from "./migrations.js"
