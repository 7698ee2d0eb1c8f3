import * as SqlClient from "@effect/sql/SqlClient"
import { OrganizationId, SamlProvider, SamlProviderId, SamlProviderRepository } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { execute, findAll, findOne, rowOf } from "../shared/Rows.js"
import { byCreation, selectPage } from "../shared/Sql.js"

const ProviderRow = rowOf(SamlProvider)

export const SamlProviderRepositoryLive = Layer.effect(
  SamlProviderRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return SamlProviderRepository.of({
      insert: execute(ProviderRow, (row) => sql`INSERT INTO saml_providers ${sql.insert(row)}`),
      update: execute(
        ProviderRow,
        (row) => sql`UPDATE saml_providers SET ${sql.update(row, ["id", "organization_id", "created_at"])} WHERE id = ${row["id"]}`
      ),
      remove: execute(SamlProviderId, (id) => sql`DELETE FROM saml_providers WHERE id = ${id}`),
      findById: findOne(SamlProviderId, ProviderRow, (id) => sql`SELECT * FROM saml_providers WHERE id = ${id}`),
      list: (organizationId, page) =>
        selectPage(sql, {
          select: sql`p.*`,
          from: sql`FROM saml_providers p`,
          where: [sql`p.organization_id = ${organizationId}`],
          ...byCreation("p"),
          page,
          row: ProviderRow
        }),
      active: findAll(
        OrganizationId,
        ProviderRow,
        (organizationId) =>
          sql`SELECT * FROM saml_providers WHERE organization_id = ${organizationId} AND status = 'active' ORDER BY created_at, id`
      ),
      // FOR UPDATE: in a transaction, the organization's row stays locked until it ends (see the port).
      lockOrganization: (organizationId) =>
        sql`SELECT 1 FROM organizations WHERE id = ${organizationId} FOR UPDATE`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
