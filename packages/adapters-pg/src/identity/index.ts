import type * as SqlClient from "@effect/sql/SqlClient"
import type { IdentityPorts } from "@octavo/domain"
import { Layer } from "effect"
import { TokenRepositoryLive } from "./TokenRepository.js"
import { UserRepositoryLive } from "./UserRepository.js"
import { identityMigrations } from "./migrations.js"
import { pgContext } from "../shared/Context.js"

/** The identity context's storage: users and their API tokens. */
export const PgIdentity: Layer.Layer<IdentityPorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  UserRepositoryLive,
  TokenRepositoryLive
)

export { identityMigrations } from "./migrations.js"
export { TokenRepositoryLive } from "./TokenRepository.js"
export { UserRepositoryLive, UserRow } from "./UserRepository.js"

/** The identity context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgIdentityContext = pgContext({
  storage: PgIdentity,
  migrations: identityMigrations
})
