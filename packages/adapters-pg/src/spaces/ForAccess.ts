import type * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { Collection, type ItemForAccess, OrganizationId, UserId } from "@octavo/domain"
import { Effect, Option, Schema } from "effect"
import { MemberRow } from "../organizations/MemberRepository.js"
import { OrganizationRow } from "../organizations/OrganizationRepository.js"
import { findOne, rowOf, type Stored } from "../shared/Rows.js"

export const CollectionRow = rowOf(Collection)

/** The organization's collections in creation order, as a JSON array (`[]` for none), `organizationId` a column of the statement. */
export const collectionsOf = (sql: SqlClient.SqlClient, organizationId: Fragment) =>
  sql`coalesce(
    (SELECT json_agg(c ORDER BY c.created_at, c.id) FROM collections c WHERE c.organization_id = ${organizationId}),
    '[]'::json
  )`

type AccessTable = "spaces" | "collections" | "sites"

/**
 * The columns access to an item `i` of `table` is decided from: the item, the user's member record and organization
 * (NULL when not a member), and for a member of a space's or a collection's organization its collections in creation
 * order, as `listAll` answers them (a site's access needs none). `accessFrom` names the tables they read.
 */
export const accessColumns = (sql: SqlClient.SqlClient, table: AccessTable) =>
  sql`to_json(i) AS item, to_json(m) AS member, to_json(o) AS organization,
    CASE WHEN m.user_id IS NULL OR ${sql.literal(table === "sites" ? "TRUE" : "FALSE")} THEN '[]'::json
      ELSE ${collectionsOf(sql, sql`i.organization_id`)} END AS collections`

/** The tables `accessColumns` reads, for the user `userId`. */
export const accessFrom = (sql: SqlClient.SqlClient, table: AccessTable, userId: string) =>
  sql`FROM ${sql(table)} i
    LEFT JOIN members m ON m.organization_id = i.organization_id AND m.user_id = ${userId}
    LEFT JOIN organizations o ON o.id = m.organization_id`

/** The schemas of `accessColumns`, for an item stored as `Item`. */
export const accessFields = <A>(Item: Stored<A>) => ({
  item: Item,
  member: Schema.NullOr(MemberRow),
  organization: Schema.NullOr(OrganizationRow),
  collections: Schema.Array(CollectionRow)
})

/** The columns of `accessColumns` as the domain's `ItemForAccess`. */
export const asItemForAccess = <A>(
  { collections, item, member, organization }: Schema.Struct.Type<ReturnType<typeof accessFields<A>>>
): ItemForAccess<A> => ({
  item,
  membership: member === null || organization === null ? Option.none() : Option.some({ member, organization }),
  collections
})

/** Reads an item of `table` (a space, a collection or a site, by id) with what access to it is decided from, in one round trip. */
export const itemForAccess = <A>(sql: SqlClient.SqlClient, table: AccessTable, Item: Stored<A>) => {
  const find = findOne(
    Schema.Tuple(Schema.String, UserId),
    Schema.Struct(accessFields(Item)),
    ([id, userId]) => sql`SELECT ${accessColumns(sql, table)} ${accessFrom(sql, table, userId)} WHERE i.id = ${id}`
  )
  return (id: string, userId: UserId): Effect.Effect<Option.Option<ItemForAccess<A>>> =>
    Effect.map(find([id, userId]), Option.map(asItemForAccess))
}

/** A member's membership of an organization with its collections (as `listAll` answers them), in one round trip. */
export const organizationForAccess = (sql: SqlClient.SqlClient) => {
  const find = findOne(
    Schema.Tuple(OrganizationId, UserId),
    Schema.Struct({ member: MemberRow, organization: OrganizationRow, collections: Schema.Array(CollectionRow) }),
    ([organizationId, userId]) =>
      sql`SELECT to_json(m) AS member, to_json(o) AS organization, ${collectionsOf(sql, sql`o.id`)} AS collections
        FROM members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.organization_id = ${organizationId} AND m.user_id = ${userId}`
  )
  return (organizationId: OrganizationId, userId: UserId) =>
    Effect.map(
      find([organizationId, userId]),
      Option.map(({ collections, member, organization }) => ({
        membership: { member, organization },
        collections
      }))
    )
}
