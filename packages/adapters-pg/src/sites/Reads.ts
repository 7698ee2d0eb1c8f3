import * as SqlClient from "@effect/sql/SqlClient"
import { OrganizationId, PublishedPlaceFact, SiteId, SiteReads, SiteTreeRowReads } from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { single } from "../shared/Rows.js"
import { collectionsOf, CollectionRow } from "../spaces/ForAccess.js"
import { jsonArray, pgSpaceFact, PgSpaceFacts } from "../spaces/Facts.js"
import { SpaceRow } from "../spaces/SpaceRepository.js"
import { SiteRow } from "./SiteRepository.js"
import { GroupRow, SectionRow, siteSpacesOn, SiteSpaceRow, SpaceOfRow, structureColumns } from "./SiteStructureRepository.js"

/** What sites hold of some spaces (`SitesOfSpaces`) as one JSON object, each part as the sites' repositories read it. */
const SitesOfSpacesRow = Schema.Struct({
  site_spaces: Schema.Array(SpaceOfRow),
  sites: Schema.Array(SiteRow),
  sections: Schema.Array(SectionRow),
  groups: Schema.Array(GroupRow),
  structure_site_spaces: Schema.Array(SiteSpaceRow),
  structure_spaces: Schema.Array(SpaceRow)
})

/** Rows of `rows` by their site. */
const bySite = <A extends { readonly siteId: SiteId }>(rows: ReadonlyArray<A>, siteId: SiteId) =>
  rows.filter((row) => row.siteId === siteId)

/**
 * Where the spaces are published, on views of spaces: the site spaces on them (`held`), their sites with everything
 * under them, and the spaces those hold, as one JSON object.
 */
export const PgPublishedPlaces = pgSpaceFact(
  PublishedPlaceFact,
  (sql, ids) => {
    const agg = (rows: string) => jsonArray(sql, rows)
    return sql`(WITH held AS (${siteSpacesOn(sql, ids)}), held_sites AS (SELECT DISTINCT site_id FROM held)
      SELECT to_json(f) FROM (SELECT
        (SELECT ${agg("h ORDER BY h.site_id, h.space_id, h.id")} FROM held h) AS site_spaces,
        (SELECT ${agg("s")} FROM sites s WHERE s.id IN (SELECT site_id FROM held_sites)) AS sites,
        ${structureColumns(sql, sql`x.site_id IN (SELECT site_id FROM held_sites)`, "structure_site_spaces")},
        (SELECT ${agg("sp")} FROM spaces sp
          WHERE sp.id IN (SELECT x.space_id FROM site_spaces x WHERE x.site_id IN (SELECT site_id FROM held_sites))
        ) AS structure_spaces) f)`
  },
  Schema.transform(SitesOfSpacesRow, Schema.Any, {
    strict: true,
    decode: (row) => ({
      siteSpaces: row.site_spaces,
      sites: row.sites,
      structures: new Map(row.sites.map((site) => [site.id, {
        sections: bySite(row.sections, site.id),
        groups: bySite(row.groups, site.id),
        siteSpaces: bySite(row.structure_site_spaces, site.id)
      }])),
      structureSpaces: row.structure_spaces
    }),
    encode: (rows) => rows
  })
)

/**
 * A site's structure, the spaces its site spaces are on with every space fact's rows of them (`PgSpaceFacts`, as one
 * JSON object), and the organization's collections, in one statement: a read of a site then costs its access read and
 * this.
 */
export const PgSiteTreeRowReads = Layer.effect(
  SiteTreeRowReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const facts = yield* PgSpaceFacts
    const read = single(
      Schema.Tuple(SiteId, OrganizationId),
      Schema.Struct({
        sections: Schema.Array(SectionRow),
        groups: Schema.Array(GroupRow),
        site_spaces: Schema.Array(SiteSpaceRow),
        spaces: Schema.Array(SpaceRow),
        collections: Schema.Array(CollectionRow),
        facts: facts.rows
      }),
      ([siteId, organizationId]) => {
        const onSpaces = sql`SELECT space_id FROM site_spaces WHERE site_id = ${siteId}`
        return sql`SELECT ${structureColumns(sql, sql`x.site_id = ${siteId}`)},
            (SELECT ${jsonArray(sql, "sp")} FROM spaces sp WHERE sp.id IN (${onSpaces})) AS spaces,
            ${collectionsOf(sql, sql`${organizationId}`)} AS collections,
            (SELECT to_json(f) FROM (SELECT ${facts.columns(sql, onSpaces)}) f) AS facts`
      }
    )
    return SiteTreeRowReads.of({
      tree: (siteId, organizationId) =>
        Effect.map(read([siteId, organizationId]), ({ collections, facts, groups, sections, site_spaces, spaces }) => ({
          structure: { sections, groups, siteSpaces: site_spaces },
          spaces,
          collections,
          facts
        }))
    })
  })
)

/** What a list of sites takes of spaces, with the sites' own rows, in one statement. */
export const PgSiteReads = Layer.effect(
  SiteReads,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const agg = (rows: string) => jsonArray(sql, rows)
    const spacesOf = single(
      Schema.Array(SiteId),
      Schema.Struct({ held: Schema.Array(SpaceOfRow), spaces: Schema.Array(SpaceRow) }),
      (ids) =>
        sql`WITH held AS (SELECT site_id, space_id, id FROM site_spaces WHERE site_id = ANY(${ids}::text[]))
        SELECT (SELECT ${agg("h ORDER BY h.site_id, h.space_id, h.id")} FROM held h) AS held,
          (SELECT ${agg("sp")} FROM spaces sp WHERE sp.id IN (SELECT space_id FROM held)) AS spaces`
    )
    return SiteReads.of({
      spacesOf: (siteIds) => siteIds.length === 0 ? Effect.succeed({ held: [], spaces: [] }) : spacesOf(siteIds)
    })
  })
)
