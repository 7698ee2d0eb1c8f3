import * as SqlClient from "@effect/sql/SqlClient"
import {
  conflicts,
  type CustomField,
  type CustomFieldId,
  CustomFieldRepository,
  type CustomFieldType,
  CustomFieldValue,
  type OrganizationId
} from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { conflictOnUnique, type Millis, selectPage, toDate } from "./Sql.js"

interface CustomFieldRow {
  readonly id: CustomFieldId
  readonly organization_id: OrganizationId
  readonly name: string
  readonly type: CustomFieldType
  readonly title: string | null
  readonly description: string | null
  readonly placeholder: string | null
  readonly options: ReadonlyArray<string> | null
  readonly created_at: Millis
  readonly updated_at: Millis
}

interface ValueRow {
  readonly field_id: CustomFieldId
  readonly value: unknown
}

const toCustomField = (row: CustomFieldRow): CustomField => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  type: row.type,
  ...(row.title === null ? {} : { title: row.title }),
  ...(row.description === null ? {} : { description: row.description }),
  ...(row.placeholder === null ? {} : { placeholder: row.placeholder }),
  ...(row.options === null ? {} : { options: row.options }),
  createdAt: toDate(row.created_at),
  updatedAt: toDate(row.updated_at)
})

const decodeValue = Schema.decodeUnknownSync(CustomFieldValue)

export const CustomFieldRepositoryLive = Layer.effect(
  CustomFieldRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)

    return CustomFieldRepository.of({
      insert: (field) =>
        guarded(
          sql`INSERT INTO custom_fields
              (id, organization_id, name, type, title, description, placeholder, options, created_at, updated_at)
            VALUES (${field.id}, ${field.organizationId}, ${field.name}, ${field.type}, ${field.title ?? null},
              ${field.description ?? null}, ${field.placeholder ?? null}, ${field.options ?? null}::text[],
              ${field.createdAt.getTime()}, ${field.updatedAt.getTime()})`,
          (constraint) =>
            constraint === "custom_fields_name_key"
              ? conflicts.customFieldTaken(field.name)
              : conflicts.idTaken("custom field", field.id)
        ).pipe(Effect.asVoid),
      update: (field) =>
        sql`UPDATE custom_fields SET
            organization_id = ${field.organizationId},
            name = ${field.name},
            type = ${field.type},
            title = ${field.title ?? null},
            description = ${field.description ?? null},
            placeholder = ${field.placeholder ?? null},
            options = ${field.options ?? null}::text[],
            created_at = ${field.createdAt.getTime()},
            updated_at = ${field.updatedAt.getTime()}
          WHERE id = ${field.id}`.pipe(Effect.asVoid, Effect.orDie),
      // The field's values on every space go with it (ON DELETE CASCADE).
      delete: (id) => sql`DELETE FROM custom_fields WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      findByName: (organizationId, name) =>
        sql<CustomFieldRow>`SELECT * FROM custom_fields WHERE organization_id = ${organizationId} AND name = ${name}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCustomField)),
          Effect.orDie
        ),
      list: (organizationId, page) =>
        selectPage(sql, {
          select: sql`f.*`,
          from: sql`FROM custom_fields f`,
          where: [sql`f.organization_id = ${organizationId}`],
          keyset: { value: "f.created_at", id: "f.id" },
          order: "asc",
          page,
          toItem: toCustomField,
          keysetOf: (field) => [field.createdAt.getTime(), field.id]
        }),
      listAll: (organizationId) =>
        sql<CustomFieldRow>`SELECT * FROM custom_fields WHERE organization_id = ${organizationId}
          ORDER BY created_at, id`.pipe(Effect.map((rows) => rows.map(toCustomField)), Effect.orDie),
      valuesOf: (spaceId) =>
        sql<ValueRow>`SELECT field_id, value FROM custom_field_values WHERE space_id = ${spaceId} ORDER BY field_id`.pipe(
          Effect.map((rows) => new Map(rows.map((row) => [row.field_id, decodeValue(row.value)] as const))),
          Effect.orDie
        ),
      setValues: (spaceId, values) => {
        const cleared = Array.from(values).flatMap(([fieldId, value]) => value === null ? [fieldId] : [])
        const set = Array.from(values).flatMap(([fieldId, value]) =>
          value === null ? [] : [sql`(${spaceId}, ${fieldId}, ${JSON.stringify(value)}::jsonb)`]
        )
        if (values.size === 0) return Effect.void
        return sql.withTransaction(Effect.all([
          cleared.length === 0 ? Effect.void : sql`DELETE FROM custom_field_values
            WHERE space_id = ${spaceId} AND ${sql.in("field_id", cleared)}`,
          set.length === 0 ? Effect.void : sql`INSERT INTO custom_field_values (space_id, field_id, value)
            VALUES ${sql.csv(set)}
            ON CONFLICT (space_id, field_id) DO UPDATE SET value = EXCLUDED.value`
        ])).pipe(Effect.asVoid, Effect.orDie)
      }
    })
  })
)
