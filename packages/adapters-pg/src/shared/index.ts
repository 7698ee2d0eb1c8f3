import type * as SqlClient from "@effect/sql/SqlClient"
import type { UnitOfWork } from "@octavo/domain"
import type { Layer } from "effect"
import { UnitOfWorkLive } from "./UnitOfWork.js"

/** What every context shares: the unit of work, a transaction of the SqlClient. */
export const PgShared: Layer.Layer<UnitOfWork, never, SqlClient.SqlClient> = UnitOfWorkLive

export { type Migration, migrateTo } from "./Migrations.js"
export { makePgliteClient, PgliteClient, type PgliteOptions } from "./Pglite.js"
export { PgServerClient, PgServerClientInFreshSchema, withSearchPath } from "./PgServer.js"
export { UnitOfWorkLive } from "./UnitOfWork.js"
