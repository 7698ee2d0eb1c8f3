import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { Conflict, conflicts, type Site as SiteType, Site, SiteId, SiteRepository, SpaceId } from "@octavo/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { DateFromMillis, findAll, findOne, Jsonb, rowOf, write } from "../shared/Rows.js"
import { itemForAccess } from "../spaces/ForAccess.js"
import { byCreation, conflictOnUnique, containsIgnoringCase, selectPage } from "../shared/Sql.js"

const { adaptiveSchema: _adaptiveSchema, publishingAuth: _publishingAuth, ...siteColumns } = Site.fields

/**
 * A site's row: its publishing auth kept as three columns, its adaptive schema as a jsonb column and
 * the time it was put (the schema is there when that time is).
 */
export const SiteRow = Schema.transform(
  rowOf(
    Schema.Struct({
      ...siteColumns,
      publishingAuthPrivateKey: Schema.String,
      publishingAuthFallbackURL: Schema.NullOr(Schema.String),
      publishingAuthLogoutURL: Schema.NullOr(Schema.String),
      adaptiveSchema: Schema.Unknown,
      adaptiveSchemaUpdatedAt: Schema.NullOr(Schema.DateFromSelf)
    }),
    { adaptiveSchema: Schema.NullOr(Jsonb(Schema.Unknown)), adaptiveSchemaUpdatedAt: Schema.NullOr(DateFromMillis) }
  ),
  Schema.typeSchema(Site),
  {
    strict: true,
    decode: (
      {
        adaptiveSchema,
        adaptiveSchemaUpdatedAt,
        publishingAuthFallbackURL,
        publishingAuthLogoutURL,
        publishingAuthPrivateKey,
        ...site
      }
    ) => ({
      ...site,
      publishingAuth: {
        privateKey: publishingAuthPrivateKey,
        fallbackURL: publishingAuthFallbackURL,
        logoutURL: publishingAuthLogoutURL
      },
      adaptiveSchema: adaptiveSchemaUpdatedAt === null ? null : { jsonSchema: adaptiveSchema, updatedAt: adaptiveSchemaUpdatedAt }
    }),
    encode: ({ adaptiveSchema, publishingAuth, ...site }) => ({
      ...site,
      publishingAuthPrivateKey: publishingAuth.privateKey,
      publishingAuthFallbackURL: publishingAuth.fallbackURL,
      publishingAuthLogoutURL: publishingAuth.logoutURL,
      adaptiveSchema: adaptiveSchema === null ? null : adaptiveSchema.jsonSchema,
      adaptiveSchemaUpdatedAt: adaptiveSchema === null ? null : adaptiveSchema.updatedAt
    })
  }
)

const HoldingRow = rowOf(Schema.Struct({ siteId: SiteId }))

/** The conflicts of a site's unique indexes, by the index a violation names. */
const conflictOf = (site: SiteType) => (constraint: string): Conflict =>
  constraint === "sites_basename_key"
    ? new Conflict({ reason: `The basename ${site.basename ?? ""} is taken in this organization` })
    : constraint === "sites_proxy_key"
    ? new Conflict({ reason: `The proxy ${site.proxy ?? ""} is taken` })
    : conflicts.idTaken("site", site.id)

export const SiteRepositoryLive = Layer.effect(
  SiteRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const insert = write(SiteRow, (row) => sql`INSERT INTO sites ${sql.insert(row)}`)
    const update = write(SiteRow, (row) => sql`UPDATE sites SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`)
    const findBasename = findOne(
      Schema.Struct({ organizationId: Schema.String, basename: Schema.String }),
      SiteRow,
      ({ basename, organizationId }) =>
        sql`SELECT * FROM sites WHERE organization_id = ${organizationId} AND lower(basename) = lower(${basename}) AND basename IS NOT NULL`
    )
    const siteForAccess = itemForAccess(sql, "sites", SiteRow)
    const holding = findAll(
      SpaceId,
      HoldingRow,
      (spaceId) => sql`SELECT DISTINCT site_id FROM site_spaces WHERE space_id = ${spaceId} ORDER BY site_id`
    )

    return SiteRepository.of({
      insert: (site) => guarded(insert(site), conflictOf(site)),
      update: (site) => guarded(update(site), conflictOf(site)),
      // Its sections, groups, site spaces, share links and redirects go with it (ON DELETE CASCADE).
      remove: (id) => sql`DELETE FROM sites WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      findById: findOne(SiteId, SiteRow, (id) => sql`SELECT * FROM sites WHERE id = ${id}`),
      findForAccess: (id, userId) =>
        Effect.map(siteForAccess(id, userId), Option.map(({ item, membership }) => ({ site: item, membership }))),
      // The unique index on (organization_id, lower(basename)) answers it.
      findByBasename: (organizationId, basename) => findBasename({ organizationId, basename }),
      // FOR UPDATE: in a transaction, the row stays locked until it ends (see the port).
      lock: (id) => sql`SELECT 1 FROM sites WHERE id = ${id} FOR UPDATE`.pipe(Effect.asVoid, Effect.orDie),
      list: (organizationId, filter, page) => {
        const where: Array<Fragment> = [sql`s.organization_id = ${organizationId}`]
        if (filter.spaceId !== undefined) {
          where.push(sql`EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = s.id AND ss.space_id = ${filter.spaceId})`)
        }
        if (filter.title !== undefined) where.push(containsIgnoringCase(sql, "s.title", filter.title))
        if (filter.published !== undefined) where.push(sql`s.published = ${filter.published}`)
        if (filter.types !== undefined && filter.types.length > 0) where.push(sql`s.type = ANY(${filter.types}::text[])`)
        return selectPage(sql, {
          select: sql`s.*`,
          from: sql`FROM sites s`,
          where,
          ...byCreation("s"),
          page,
          row: SiteRow
        })
      },
      holding: (spaceId) => Effect.map(holding(spaceId), (rows) => rows.map((row) => row.siteId))
    })
  })
)
