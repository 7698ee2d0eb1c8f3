import type * as SqlClient from "@effect/sql/SqlClient"
import type { UnitOfWork } from "@octavo/domain"
import type { Layer } from "effect"
import { pgContext } from "./Context.js"
import { UnitOfWorkLive } from "./UnitOfWork.js"

/** What every context shares: the unit of work, a transaction of the SqlClient. */
export const PgShared: Layer.Layer<UnitOfWork, never, SqlClient.SqlClient> = UnitOfWorkLive

/** The shared kernel's part of the PostgreSQL storage (the list in PgStorage.ts). */
export const PgSharedContext = pgContext({ storage: PgShared })

export { type PgContext, pgContext, type PgSpaceFact } from "./Context.js"
export { type Migration, migrateTo } from "./Migrations.js"
export { makePgliteClient, PgliteClient, type PgliteOptions } from "./Pglite.js"
export { PgServerClient, PgServerClientInFreshSchema, withSearchPath } from "./PgServer.js"
export { UnitOfWorkLive } from "./UnitOfWork.js"
