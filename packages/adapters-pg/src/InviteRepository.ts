import * as SqlClient from "@effect/sql/SqlClient"
import { type Invite, type InviteId, InviteRepository, type OrganizationId, type Role } from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { type Millis, selectPage, toDate } from "./Sql.js"

interface InviteRow {
  readonly id: InviteId
  readonly organization_id: OrganizationId
  readonly role: Role
  readonly created_at: Millis
}

const toInvite = (row: InviteRow): Invite => ({
  id: row.id,
  organizationId: row.organization_id,
  role: row.role,
  createdAt: toDate(row.created_at)
})

export const InviteRepositoryLive = Layer.effect(
  InviteRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return InviteRepository.of({
      insert: (invite) =>
        sql`INSERT INTO invites (id, organization_id, role, created_at)
          VALUES (${invite.id}, ${invite.organizationId}, ${invite.role}, ${invite.createdAt.getTime()})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      update: (invite) =>
        sql`UPDATE invites SET organization_id = ${invite.organizationId}, role = ${invite.role},
            created_at = ${invite.createdAt.getTime()}
          WHERE id = ${invite.id}`.pipe(Effect.asVoid, Effect.orDie),
      delete: (id) => sql`DELETE FROM invites WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      findById: (id) =>
        sql<InviteRow>`SELECT * FROM invites WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toInvite)),
          Effect.orDie
        ),
      list: (organizationId, page) =>
        selectPage(sql, {
          select: sql`i.*`,
          from: sql`FROM invites i`,
          where: [sql`i.organization_id = ${organizationId}`],
          keyset: { value: "i.created_at", id: "i.id" },
          order: "asc",
          page,
          toItem: toInvite,
          keysetOf: (invite) => [invite.createdAt.getTime(), invite.id]
        })
    })
  })
)
