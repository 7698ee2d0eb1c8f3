import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { UnitOfWork } from "@octavo/domain"
import { Effect, Layer } from "effect"

/** A unit of work is a database transaction; nested ones are savepoints. */
export const UnitOfWorkLive = Layer.effect(
  UnitOfWork,
  Effect.map(SqlClient.SqlClient, (sql) =>
    UnitOfWork.of({
      transaction: (effect) =>
        sql.withTransaction(effect).pipe(
          Effect.catchIf((error): error is SqlError => error instanceof SqlError, Effect.die)
        )
    }))
)
