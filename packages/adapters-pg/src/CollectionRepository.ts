import * as SqlClient from "@effect/sql/SqlClient"
import {
  type Collection,
  type CollectionId,
  CollectionRepository,
  type OrganizationId,
  type Role
} from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { type Millis, selectPage, toDate, treeListing } from "./Sql.js"

interface CollectionRow {
  readonly id: CollectionId
  readonly organization_id: OrganizationId
  readonly title: string
  readonly description: string | null
  readonly parent_id: CollectionId | null
  readonly position: string
  readonly default_level: Role
  readonly created_at: Millis
  readonly updated_at: Millis
}

const toCollection = (row: CollectionRow): Collection => ({
  id: row.id,
  organizationId: row.organization_id,
  title: row.title,
  ...(row.description === null ? {} : { description: row.description }),
  parentId: row.parent_id,
  position: row.position,
  defaultLevel: row.default_level,
  createdAt: toDate(row.created_at),
  updatedAt: toDate(row.updated_at)
})

export const CollectionRepositoryLive = Layer.effect(
  CollectionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return CollectionRepository.of({
      insert: (collection) =>
        sql`INSERT INTO collections
            (id, organization_id, title, description, parent_id, position, default_level, created_at, updated_at)
          VALUES (${collection.id}, ${collection.organizationId}, ${collection.title}, ${collection.description ?? null},
            ${collection.parentId}, ${collection.position}, ${collection.defaultLevel},
            ${collection.createdAt.getTime()}, ${collection.updatedAt.getTime()})`.pipe(Effect.asVoid, Effect.orDie),
      update: (collection) =>
        sql`UPDATE collections SET
            organization_id = ${collection.organizationId},
            title = ${collection.title},
            description = ${collection.description ?? null},
            parent_id = ${collection.parentId},
            position = ${collection.position},
            default_level = ${collection.defaultLevel},
            created_at = ${collection.createdAt.getTime()},
            updated_at = ${collection.updatedAt.getTime()}
          WHERE id = ${collection.id}`.pipe(Effect.asVoid, Effect.orDie),
      delete: (id) => sql`DELETE FROM collections WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      findById: (id) =>
        sql<CollectionRow>`SELECT * FROM collections WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCollection)),
          Effect.orDie
        ),
      list: (organizationId, filter, page) =>
        selectPage(sql, {
          select: sql`c.*`,
          from: sql`FROM collections c`,
          ...treeListing(sql, "c", organizationId, filter),
          page,
          toItem: toCollection
        }),
      listAll: (organizationId) =>
        sql<CollectionRow>`SELECT * FROM collections WHERE organization_id = ${organizationId}
          ORDER BY created_at, id`.pipe(Effect.map((rows) => rows.map(toCollection)), Effect.orDie)
    })
  })
)
