import * as SqlClient from "@effect/sql/SqlClient"
import {
  conflicts,
  CustomField,
  CustomFieldId,
  CustomFieldRepository,
  CustomFieldValue,
  OrganizationId,
  SpaceId
} from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { execute, findAll, findOne, Jsonb, rowOf, write } from "../shared/Rows.js"
import { byCreation, conflictOnUnique, selectPage } from "../shared/Sql.js"

const CustomFieldRow = rowOf(CustomField)

/** A row of `custom_field_values`: a field's value on a space. */
const ValueRow = rowOf(Schema.Struct({ spaceId: SpaceId, fieldId: CustomFieldId, value: CustomFieldValue }), {
  value: Jsonb(CustomFieldValue)
})

export const CustomFieldRepositoryLive = Layer.effect(
  CustomFieldRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const insert = write(CustomFieldRow, (row) => sql`INSERT INTO custom_fields ${sql.insert(row)}`)
    const findByName = findOne(
      Schema.Tuple(OrganizationId, Schema.String),
      CustomFieldRow,
      ([organizationId, name]) => sql`SELECT * FROM custom_fields WHERE organization_id = ${organizationId} AND name = ${name}`
    )
    const valuesOf = findAll(
      SpaceId,
      ValueRow,
      (spaceId) => sql`SELECT * FROM custom_field_values WHERE space_id = ${spaceId} ORDER BY field_id`
    )
    const upsertValues = execute(Schema.Array(ValueRow), (rows) =>
      sql`INSERT INTO custom_field_values ${sql.insert(rows)}
        ON CONFLICT (space_id, field_id) DO UPDATE SET value = EXCLUDED.value`)

    return CustomFieldRepository.of({
      insert: (field) =>
        guarded(insert(field), (constraint) =>
          constraint === "custom_fields_name_key"
            ? conflicts.customFieldTaken(field.name)
            : conflicts.idTaken("custom field", field.id)),
      update: execute(
        CustomFieldRow,
        (row) => sql`UPDATE custom_fields SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`
      ),
      // The field's values on every space go with it (ON DELETE CASCADE).
      delete: execute(CustomFieldId, (id) => sql`DELETE FROM custom_fields WHERE id = ${id}`),
      findByName: (organizationId, name) => findByName([organizationId, name]),
      list: (organizationId, page) =>
        selectPage(sql, {
          select: sql`f.*`,
          from: sql`FROM custom_fields f`,
          where: [sql`f.organization_id = ${organizationId}`],
          ...byCreation("f"),
          page,
          row: CustomFieldRow
        }),
      listAll: findAll(
        OrganizationId,
        CustomFieldRow,
        (organizationId) => sql`SELECT * FROM custom_fields WHERE organization_id = ${organizationId} ORDER BY created_at, id`
      ),
      valuesOf: (spaceId) => Effect.map(valuesOf(spaceId), (rows) => new Map(rows.map((row) => [row.fieldId, row.value] as const))),
      setValues: (spaceId, values) => {
        const cleared = Array.from(values).flatMap(([fieldId, value]) => value === null ? [fieldId] : [])
        const set = Array.from(values).flatMap(([fieldId, value]) => value === null ? [] : [{ spaceId, fieldId, value }])
        if (values.size === 0) return Effect.void
        return sql.withTransaction(Effect.all([
          cleared.length === 0 ? Effect.void : sql`DELETE FROM custom_field_values
            WHERE space_id = ${spaceId} AND ${sql.in("field_id", cleared)}`,
          set.length === 0 ? Effect.void : upsertValues(set)
        ])).pipe(Effect.asVoid, Effect.orDie)
      }
    })
  })
)
