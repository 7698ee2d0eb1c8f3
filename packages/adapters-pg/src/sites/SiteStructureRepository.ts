import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  LocalizedDescription,
  LocalizedTitle,
  SiteId,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructureRepository,
  SpaceId
} from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { type Columns, findAll, Jsonb, rowOf, single } from "../shared/Rows.js"
import { type Ids, oneOf } from "../shared/Sql.js"

const localizedTitle = Jsonb(LocalizedTitle)
export const SectionRow = rowOf(SiteSection, { localizedTitle, localizedDescription: Jsonb(LocalizedDescription) })
export const GroupRow = rowOf(SiteSectionGroup, { localizedTitle })
export const SiteSpaceRow = rowOf(SiteSpace, { localizedTitle })
/** A site space's (site, space) pair. */
export const SpaceOfRow = rowOf(Schema.Struct({ siteId: SiteId, spaceId: SpaceId }))

/** The site spaces on any of the spaces, as `SpaceOfRow`s with their ids (which order them after site and space). */
export const siteSpacesOn = (sql: SqlClient.SqlClient, spaceIds: Ids) =>
  sql`SELECT site_id, space_id, id FROM site_spaces WHERE ${oneOf(sql, "space_id", spaceIds)}`

/**
 * A site structure's three tables as JSON array columns (`[]` for none) of the rows `where` keeps, a
 * condition on `x.site_id`: one statement reads a site's whole structure, or several sites'.
 */
export const structureColumns = (sql: SqlClient.SqlClient, where: Fragment, siteSpacesAs = "site_spaces") =>
  sql`(SELECT coalesce(json_agg(x), '[]') FROM site_sections x WHERE ${where}) AS sections,
    (SELECT coalesce(json_agg(x), '[]') FROM site_section_groups x WHERE ${where}) AS groups,
    (SELECT coalesce(json_agg(x), '[]') FROM site_spaces x WHERE ${where}) AS ${sql.literal(siteSpacesAs)}`

const StructureRow = Schema.Struct({
  sections: Schema.Array(SectionRow),
  groups: Schema.Array(GroupRow),
  site_spaces: Schema.Array(SiteSpaceRow)
})

export const SiteStructureRepositoryLive = Layer.effect(
  SiteStructureRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const structureOf = single(SiteId, StructureRow, (siteId) => sql`SELECT ${structureColumns(sql, sql`x.site_id = ${siteId}`)}`)
    const spacesOf = findAll(
      Schema.Array(SiteId),
      SpaceOfRow,
      (ids) => sql`SELECT site_id, space_id FROM site_spaces WHERE site_id = ANY(${ids}::text[]) ORDER BY site_id, space_id, id`
    )

    const onSpaces = findAll(
      Schema.Array(SpaceId),
      SpaceOfRow,
      (ids) => sql`SELECT site_id, space_id FROM (${siteSpacesOn(sql, ids)}) s ORDER BY site_id, space_id, id`
    )

    const remove = (table: string, ids: ReadonlyArray<string>) =>
      ids.length === 0 ? Effect.void : sql`DELETE FROM ${sql(table)} WHERE id = ANY(${ids}::text[])`.pipe(Effect.asVoid)
    // Inserts the rows, or overwrites every column of those whose id is there already.
    const upsert = (table: string, rows: ReadonlyArray<Columns>) => {
      const [first] = rows
      if (first === undefined) return Effect.void
      const overwritten = Object.keys(first).filter((column) => column !== "id")
        .map((column) => `"${column}" = EXCLUDED."${column}"`)
      return sql`INSERT INTO ${sql(table)} ${sql.insert(rows)}
        ON CONFLICT (id) DO UPDATE SET ${sql.literal(overwritten.join(", "))}`.pipe(Effect.asVoid)
    }

    return SiteStructureRepository.of({
      load: (siteId) =>
        Effect.map(structureOf(siteId), ({ groups, sections, site_spaces }) => ({ sections, groups, siteSpaces: site_spaces })),
      // Removals first: an id both removed and put ends up put.
      write: (writes) =>
        Effect.gen(function*() {
          const sections = yield* Schema.encode(Schema.Array(SectionRow))(writes.sections.put)
          const groups = yield* Schema.encode(Schema.Array(GroupRow))(writes.groups.put)
          const siteSpaces = yield* Schema.encode(Schema.Array(SiteSpaceRow))(writes.siteSpaces.put)
          yield* remove("site_spaces", writes.siteSpaces.removed)
          yield* remove("site_sections", writes.sections.removed)
          yield* remove("site_section_groups", writes.groups.removed)
          yield* upsert("site_section_groups", groups)
          yield* upsert("site_sections", sections)
          yield* upsert("site_spaces", siteSpaces)
        }).pipe(sql.withTransaction, Effect.orDie),
      spacesOf: (siteIds) => siteIds.length === 0 ? Effect.succeed([]) : spacesOf(siteIds),
      onSpaces: (spaceIds) => spaceIds.length === 0 ? Effect.succeed([]) : onSpaces(spaceIds)
    })
  })
)
