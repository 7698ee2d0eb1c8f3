import * as SqlClient from "@effect/sql/SqlClient"
import { CollectionId, RevisionId, Space, SpaceId, SpaceRepository } from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { DateFromMillis, execute, findAll, findOne, rowOf } from "../shared/Rows.js"
import { selectPage } from "../shared/Sql.js"
import { itemForAccess } from "./ForAccess.js"
import { treeListing } from "./TreeListing.js"

export const SpaceRow = rowOf(Space)

export const SpaceRepositoryLive = Layer.effect(
  SpaceRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const setRevision = execute(
      Schema.Tuple(SpaceId, RevisionId, DateFromMillis),
      ([id, revisionId, updatedAt]) => sql`UPDATE spaces SET revision_id = ${revisionId}, updated_at = ${updatedAt} WHERE id = ${id}`
    )
    const listDeletedBefore = findAll(
      Schema.Tuple(DateFromMillis, Schema.Number),
      SpaceRow,
      ([cutoff, limit]) =>
        sql`SELECT * FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at <= ${cutoff}
          ORDER BY deleted_at, id LIMIT ${limit}`
    )
    const inCollections = findAll(
      Schema.Array(CollectionId),
      SpaceRow,
      (ids) => sql`SELECT * FROM spaces WHERE ${sql.in("parent_id", ids)} ORDER BY created_at, id`
    )

    const findForAccess = itemForAccess(sql, "spaces", SpaceRow)

    const findMany = findAll(Schema.Array(SpaceId), SpaceRow, (ids) => sql`SELECT * FROM spaces WHERE id = ANY(${ids}::text[])`)

    return SpaceRepository.of({
      insert: execute(SpaceRow, (row) => sql`INSERT INTO spaces ${sql.insert(row)}`),
      // The active revision moves only by setRevision.
      update: execute(
        SpaceRow,
        (row) => sql`UPDATE spaces SET ${sql.update(row, ["id", "revision_id"])} WHERE id = ${row["id"]}`
      ),
      setRevision: (id, revisionId, updatedAt) => setRevision([id, revisionId, updatedAt]),
      // FOR UPDATE: in a transaction, the row stays locked until it ends (see the port).
      lock: (id) => sql`SELECT 1 FROM spaces WHERE id = ${id} FOR UPDATE`.pipe(Effect.asVoid, Effect.orDie),
      delete: (id) =>
        sql.withTransaction(Effect.all([
          sql`DELETE FROM custom_field_values WHERE space_id = ${id}`,
          sql`DELETE FROM revisions WHERE space_id = ${id}`,
          sql`DELETE FROM spaces WHERE id = ${id}`
        ])).pipe(Effect.asVoid, Effect.orDie),
      findById: findOne(SpaceId, SpaceRow, (id) => sql`SELECT * FROM spaces WHERE id = ${id}`),
      findForAccess,
      findMany: (ids) => (ids.length === 0 ? Effect.succeed([]) : findMany(ids)),
      list: (organizationId, filter, page) => {
        const listing = treeListing(sql, "s", organizationId, filter)
        return selectPage(sql, {
          select: sql`s.*`,
          from: sql`FROM spaces s`,
          ...listing,
          where: [...listing.where, sql`s.deleted_at IS NULL`],
          page,
          row: SpaceRow
        })
      },
      listInCollections: (ids) => ids.length === 0 ? Effect.succeed([]) : inCollections(ids),
      listDeletedBefore: (cutoff, limit) => listDeletedBefore([cutoff, limit])
    })
  })
)
