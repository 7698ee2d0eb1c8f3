import * as SqlClient from "@effect/sql/SqlClient"
import {
  conflicts,
  DefaultContent,
  Organization,
  OrganizationId,
  OrganizationRepository
} from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { findAll, findOne, Jsonb, rowOf, write } from "../shared/Rows.js"
import { byCreation, conflictOnUnique, selectPage } from "../shared/Sql.js"

export const OrganizationRow = rowOf(Organization, { defaultContent: Jsonb(DefaultContent) })

export const OrganizationRepositoryLive = Layer.effect(
  OrganizationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const conflictReason = (organization: Organization) => (constraint: string) =>
      constraint === "organizations_hostname_key"
        ? conflicts.hostnameTaken(organization.hostname ?? "")
        : conflicts.idTaken("organization", organization.id)
    const insert = write(OrganizationRow, (row) => sql`INSERT INTO organizations ${sql.insert(row)}`)
    const update = write(
      OrganizationRow,
      (row) => sql`UPDATE organizations SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`
    )

    return OrganizationRepository.of({
      insert: (organization) => guarded(insert(organization), conflictReason(organization)),
      update: (organization) => guarded(update(organization), conflictReason(organization)),
      findById: findOne(OrganizationId, OrganizationRow, (id) => sql`SELECT * FROM organizations WHERE id = ${id}`),
      findByHostname: findOne(
        Schema.String,
        OrganizationRow,
        (hostname) => sql`SELECT * FROM organizations WHERE hostname = ${hostname}`
      ),
      listForUser: (userId, page) =>
        selectPage(sql, {
          select: sql`o.*`,
          from: sql`FROM organizations o JOIN members m ON m.organization_id = o.id`,
          where: [sql`m.user_id = ${userId}`],
          ...byCreation("o"),
          page,
          row: OrganizationRow
        }),
      findByEmailDomain: findAll(
        Schema.String,
        OrganizationRow,
        (domain) => sql`SELECT * FROM organizations WHERE email_domains @> ARRAY[${domain}::text] ORDER BY created_at, id`
      )
    })
  })
)
