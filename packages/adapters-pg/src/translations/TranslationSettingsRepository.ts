import * as SqlClient from "@effect/sql/SqlClient"
import { TranslationSettings, TranslationSettingsId, TranslationSettingsRepository } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { execute, findOne, rowOf } from "../shared/Rows.js"
import { byCreation, selectPage } from "../shared/Sql.js"

const SettingsRow = rowOf(TranslationSettings)

export const TranslationSettingsRepositoryLive = Layer.effect(
  TranslationSettingsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return TranslationSettingsRepository.of({
      insert: execute(SettingsRow, (row) => sql`INSERT INTO translation_settings ${sql.insert(row)}`),
      update: execute(
        SettingsRow,
        (row) => sql`UPDATE translation_settings SET ${sql.update(row, ["id", "organization_id", "created_at"])} WHERE id = ${row["id"]}`
      ),
      remove: execute(TranslationSettingsId, (id) => sql`DELETE FROM translation_settings WHERE id = ${id}`),
      findById: findOne(
        TranslationSettingsId,
        SettingsRow,
        (id) => sql`SELECT * FROM translation_settings WHERE id = ${id}`
      ),
      list: (organizationId, page) =>
        selectPage(sql, {
          select: sql`t.*`,
          from: sql`FROM translation_settings t`,
          where: [sql`t.organization_id = ${organizationId}`],
          ...byCreation("t"),
          page,
          row: SettingsRow
        })
    })
  })
)
