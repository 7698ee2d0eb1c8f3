import * as SqlClient from "@effect/sql/SqlClient"
import { CollectionId, CollectionRepository, OrganizationId } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { execute, findAll, findOne } from "../shared/Rows.js"
import { selectPage } from "../shared/Sql.js"
import { CollectionRow, itemForAccess, organizationForAccess } from "./ForAccess.js"
import { treeListing } from "./TreeListing.js"

export const CollectionRepositoryLive = Layer.effect(
  CollectionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return CollectionRepository.of({
      insert: execute(CollectionRow, (row) => sql`INSERT INTO collections ${sql.insert(row)}`),
      update: execute(
        CollectionRow,
        (row) => sql`UPDATE collections SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`
      ),
      delete: execute(CollectionId, (id) => sql`DELETE FROM collections WHERE id = ${id}`),
      findById: findOne(CollectionId, CollectionRow, (id) => sql`SELECT * FROM collections WHERE id = ${id}`),
      findForAccess: itemForAccess(sql, "collections", CollectionRow),
      list: (organizationId, filter, page) =>
        selectPage(sql, {
          select: sql`c.*`,
          from: sql`FROM collections c`,
          ...treeListing(sql, "c", organizationId, filter),
          page,
          row: CollectionRow
        }),
      listAll: findAll(
        OrganizationId,
        CollectionRow,
        (organizationId) => sql`SELECT * FROM collections WHERE organization_id = ${organizationId} ORDER BY created_at, id`
      ),
      listForMember: organizationForAccess(sql)
    })
  })
)
