import * as SqlClient from "@effect/sql/SqlClient"
import { Invite, InviteId, InviteRepository } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { execute, findOne, rowOf } from "../shared/Rows.js"
import { byCreation, selectPage } from "../shared/Sql.js"

const InviteRow = rowOf(Invite)

export const InviteRepositoryLive = Layer.effect(
  InviteRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return InviteRepository.of({
      insert: execute(InviteRow, (row) => sql`INSERT INTO invites ${sql.insert(row)}`),
      update: execute(InviteRow, (row) => sql`UPDATE invites SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`),
      delete: execute(InviteId, (id) => sql`DELETE FROM invites WHERE id = ${id}`),
      findById: findOne(InviteId, InviteRow, (id) => sql`SELECT * FROM invites WHERE id = ${id}`),
      list: (organizationId, page) =>
        selectPage(sql, {
          select: sql`i.*`,
          from: sql`FROM invites i`,
          where: [sql`i.organization_id = ${organizationId}`],
          ...byCreation("i"),
          page,
          row: InviteRow
        })
    })
  })
)
