import type * as SqlClient from "@effect/sql/SqlClient"
import type { OrganizationId, ParentFilter } from "@octavo/domain"
import type { PageQuery } from "../shared/Sql.js"

/** What a tree item (collection or space) has that its lists filter and order by. */
interface TreeItem {
  readonly id: string
  readonly position: string
  readonly createdAt: Date
}

/**
 * The filters and keyset of a list of tree items by ParentFilter, over a table aliased `alias`
 * with organization_id, parent_id, position, created_at and id columns.
 */
export const treeListing = (
  sql: SqlClient.SqlClient,
  alias: string,
  organizationId: OrganizationId,
  filter: ParentFilter
): Pick<PageQuery<TreeItem>, "where" | "keyset" | "keysetOf" | "order"> => {
  const column = (name: string) => sql.literal(`${alias}.${name}`)
  const inOrganization = sql`${column("organization_id")} = ${organizationId}`
  if (filter._tag === "all") {
    return {
      where: [inOrganization],
      keyset: { value: `${alias}.created_at`, id: `${alias}.id` },
      keysetOf: (item) => [item.createdAt.getTime(), item.id],
      order: filter.order ?? "asc"
    }
  }
  return {
    where: [
      inOrganization,
      filter.parentId === null ? sql`${column("parent_id")} IS NULL` : sql`${column("parent_id")} = ${filter.parentId}`
    ],
    keyset: { value: `${alias}.position`, id: `${alias}.id`, orderKey: true },
    keysetOf: (item) => [item.position, item.id],
    order: "asc"
  }
}
