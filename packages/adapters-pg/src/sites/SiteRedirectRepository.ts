import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  Conflict,
  redirectKeyset,
  redirectOrder,
  SiteId,
  SiteRedirect,
  SiteRedirectDestination,
  SiteRedirectId,
  SiteRedirectRepository
} from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { DateFromMillis, execute, findAll, findOne, Jsonb, rowOf, single, write } from "../shared/Rows.js"
import { conflictOnUnique, containsIgnoringCase, selectPage } from "../shared/Sql.js"

const SiteRedirectRow = rowOf(SiteRedirect, {
  destination: Jsonb(SiteRedirectDestination),
  updatedAt: Schema.NullOr(DateFromMillis)
})

/** The keyset column of each order: `updatedAt` orders a redirect never changed by its creation. */
const keysetColumn = { createdAt: "r.created_at", updatedAt: "coalesce(r.updated_at, r.created_at)", source: "r.source" } as const

export const SiteRedirectRepositoryLive = Layer.effect(
  SiteRedirectRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)
    const insert = write(SiteRedirectRow, (row) => sql`INSERT INTO site_redirects ${sql.insert(row)}`)
    const update = write(SiteRedirectRow, (row) => sql`UPDATE site_redirects SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`)
    const taken = (redirect: SiteRedirect) => () =>
      new Conflict({ reason: `This site has a ${redirect.draft ? "draft " : ""}redirect from ${redirect.source} already` })
    const findBySource = findOne(
      Schema.Struct({ siteId: Schema.String, source: Schema.String, draft: Schema.Boolean }),
      SiteRedirectRow,
      ({ draft, siteId, source }) => sql`SELECT * FROM site_redirects WHERE site_id = ${siteId} AND draft = ${draft} AND source = ${source}`
    )
    const count = single(
      SiteId,
      Schema.Struct({ count: Schema.Number }),
      (siteId) => sql`SELECT count(*)::int AS count FROM site_redirects WHERE site_id = ${siteId}`
    )
    const matching = findAll(
      Schema.Struct({ siteId: Schema.String, sources: Schema.Array(Schema.String) }),
      SiteRedirectRow,
      ({ siteId, sources }) =>
        sql`SELECT * FROM site_redirects WHERE site_id = ${siteId} AND NOT draft AND source = ANY(${sources}::text[])`
    )

    return SiteRedirectRepository.of({
      insert: (redirect) => guarded(insert(redirect), taken(redirect)),
      update: (redirect) => guarded(update(redirect), taken(redirect)),
      remove: execute(SiteRedirectId, (id) => sql`DELETE FROM site_redirects WHERE id = ${id}`),
      findById: findOne(SiteRedirectId, SiteRedirectRow, (id) => sql`SELECT * FROM site_redirects WHERE id = ${id}`),
      findBySource: (siteId, source, draft) => findBySource({ siteId, source, draft }),
      count: (siteId) => Effect.map(count(siteId), (row) => row.count),
      list: (siteId, filter, page) => {
        const where: Array<Fragment> = [sql`r.site_id = ${siteId}`, sql`r.draft = ${filter.draft}`]
        if (filter.search !== undefined) where.push(containsIgnoringCase(sql, "r.source", filter.search))
        return selectPage(sql, {
          select: sql`r.*`,
          from: sql`FROM site_redirects r`,
          where,
          keyset: { value: keysetColumn[filter.orderBy], id: "r.id", orderKey: filter.orderBy === "source" },
          order: redirectOrder(filter.orderBy),
          page,
          row: SiteRedirectRow,
          keysetOf: redirectKeyset(filter.orderBy)
        })
      },
      matching: (siteId, sources) => sources.length === 0 ? Effect.succeed([]) : matching({ siteId, sources })
    })
  })
)
