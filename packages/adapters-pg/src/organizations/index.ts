import type * as SqlClient from "@effect/sql/SqlClient"
import type { OrganizationsPorts } from "@octavo/domain"
import { Layer } from "effect"
import { InviteRepositoryLive } from "./InviteRepository.js"
import { AcquaintancesLive, MemberRepositoryLive } from "./MemberRepository.js"
import { OrganizationRepositoryLive } from "./OrganizationRepository.js"
import { TeamRepositoryLive } from "./TeamRepository.js"
import { organizationsMigrations } from "./migrations.js"
import { pgContext } from "../shared/Context.js"

/** The organizations context's storage, with identity's Acquaintances, which the members table answers. */
export const PgOrganizations: Layer.Layer<OrganizationsPorts, never, SqlClient.SqlClient> = Layer.mergeAll(
  OrganizationRepositoryLive,
  MemberRepositoryLive,
  AcquaintancesLive,
  TeamRepositoryLive,
  InviteRepositoryLive
)

export { InviteRepositoryLive } from "./InviteRepository.js"
export { AcquaintancesLive, MemberRepositoryLive } from "./MemberRepository.js"
export { organizationsMigrations } from "./migrations.js"
export { OrganizationRepositoryLive } from "./OrganizationRepository.js"
export { TeamRepositoryLive } from "./TeamRepository.js"

/** The organizations context's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgOrganizationsContext = pgContext({
  storage: PgOrganizations,
  migrations: organizationsMigrations
})
