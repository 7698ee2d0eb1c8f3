import * as SqlClient from "@effect/sql/SqlClient"
import {
  type CollectionId,
  type EditMode,
  type OrganizationId,
  type RevisionId,
  type Role,
  type Space,
  type SpaceId,
  SpaceRepository,
  type UserId,
  type Visibility
} from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { type Millis, selectPage, toDate, toOptionalDate, treeListing } from "./Sql.js"

interface SpaceRow {
  readonly id: SpaceId
  readonly organization_id: OrganizationId
  readonly parent_id: CollectionId | null
  readonly position: string
  readonly title: string
  readonly emoji: string
  readonly visibility: Visibility
  readonly edit_mode: EditMode
  readonly default_level: Role
  readonly revision_id: RevisionId
  readonly created_by: UserId
  readonly created_at: Millis
  readonly updated_at: Millis
  readonly deleted_at: Millis | null
}

const toSpace = (row: SpaceRow): Space => {
  const deletedAt = toOptionalDate(row.deleted_at)
  return {
    id: row.id,
    organizationId: row.organization_id,
    parentId: row.parent_id,
    position: row.position,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility,
    editMode: row.edit_mode,
    defaultLevel: row.default_level,
    revisionId: row.revision_id,
    createdBy: row.created_by,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    ...(deletedAt === undefined ? {} : { deletedAt })
  }
}

export const SpaceRepositoryLive = Layer.effect(
  SpaceRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return SpaceRepository.of({
      insert: (space) =>
        sql`INSERT INTO spaces (id, organization_id, parent_id, position, title, emoji, visibility, edit_mode,
            default_level, revision_id, created_by, created_at, updated_at, deleted_at)
          VALUES (${space.id}, ${space.organizationId}, ${space.parentId}, ${space.position}, ${space.title},
            ${space.emoji}, ${space.visibility}, ${space.editMode}, ${space.defaultLevel}, ${space.revisionId},
            ${space.createdBy}, ${space.createdAt.getTime()}, ${space.updatedAt.getTime()},
            ${space.deletedAt?.getTime() ?? null})`.pipe(Effect.asVoid, Effect.orDie),
      update: (space) =>
        sql`UPDATE spaces SET
            organization_id = ${space.organizationId},
            parent_id = ${space.parentId},
            position = ${space.position},
            title = ${space.title},
            emoji = ${space.emoji},
            visibility = ${space.visibility},
            edit_mode = ${space.editMode},
            default_level = ${space.defaultLevel},
            created_by = ${space.createdBy},
            created_at = ${space.createdAt.getTime()},
            updated_at = ${space.updatedAt.getTime()},
            deleted_at = ${space.deletedAt?.getTime() ?? null}
          WHERE id = ${space.id}`.pipe(Effect.asVoid, Effect.orDie),
      setRevision: (id, revisionId, updatedAt) =>
        sql`UPDATE spaces SET revision_id = ${revisionId}, updated_at = ${updatedAt.getTime()} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      // FOR UPDATE: in a transaction, the row stays locked until it ends (see the port).
      lock: (id) => sql`SELECT 1 FROM spaces WHERE id = ${id} FOR UPDATE`.pipe(Effect.asVoid, Effect.orDie),
      delete: (id) =>
        sql.withTransaction(Effect.all([
          sql`DELETE FROM custom_field_values WHERE space_id = ${id}`,
          sql`DELETE FROM revisions WHERE space_id = ${id}`,
          sql`DELETE FROM spaces WHERE id = ${id}`
        ])).pipe(Effect.asVoid, Effect.orDie),
      findById: (id) =>
        sql<SpaceRow>`SELECT * FROM spaces WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toSpace)),
          Effect.orDie
        ),
      list: (organizationId, filter, page) => {
        const listing = treeListing(sql, "s", organizationId, filter)
        return selectPage(sql, {
          select: sql`s.*`,
          from: sql`FROM spaces s`,
          ...listing,
          where: [...listing.where, sql`s.deleted_at IS NULL`],
          page,
          toItem: toSpace
        })
      },
      listInCollections: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<SpaceRow>`SELECT * FROM spaces WHERE ${sql.in("parent_id", ids)} ORDER BY created_at, id`.pipe(
            Effect.map((rows) => rows.map(toSpace)),
            Effect.orDie
          ),
      listDeletedBefore: (cutoff, limit) =>
        sql<SpaceRow>`SELECT * FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at <= ${cutoff.getTime()}
          ORDER BY deleted_at, id LIMIT ${limit}`.pipe(Effect.map((rows) => rows.map(toSpace)), Effect.orDie)
    })
  })
)
