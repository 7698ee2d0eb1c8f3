import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { ShareLink, ShareLinkId, ShareLinkRepository, SiteId } from "@octavo/domain"
import { Effect, Layer } from "effect"
import { execute, findAll, findOne, rowOf } from "../shared/Rows.js"
import { byCreation, containsIgnoringCase, selectPage } from "../shared/Sql.js"

const ShareLinkRow = rowOf(ShareLink)

export const ShareLinkRepositoryLive = Layer.effect(
  ShareLinkRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return ShareLinkRepository.of({
      insert: execute(ShareLinkRow, (row) => sql`INSERT INTO site_share_links ${sql.insert(row)}`),
      update: execute(
        ShareLinkRow,
        (row) => sql`UPDATE site_share_links SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`
      ),
      remove: execute(ShareLinkId, (id) => sql`DELETE FROM site_share_links WHERE id = ${id}`),
      findById: findOne(ShareLinkId, ShareLinkRow, (id) => sql`SELECT * FROM site_share_links WHERE id = ${id}`),
      list: (siteId, search, page) => {
        const where: Array<Fragment> = [sql`l.site_id = ${siteId}`]
        if (search !== undefined) {
          where.push(sql.or([containsIgnoringCase(sql, "l.name", search), containsIgnoringCase(sql, "l.key", search)]))
        }
        return selectPage(sql, {
          select: sql`l.*`,
          from: sql`FROM site_share_links l`,
          where,
          ...byCreation("l"),
          page,
          row: ShareLinkRow
        })
      },
      active: findAll(
        SiteId,
        ShareLinkRow,
        (siteId) => sql`SELECT * FROM site_share_links WHERE site_id = ${siteId} AND active ORDER BY created_at, id`
      )
    })
  })
)
