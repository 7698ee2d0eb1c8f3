import type * as SqlClient from "@effect/sql/SqlClient"
import { Collection, type ItemForAccess, UserId } from "@octavo/domain"
import { Effect, Option, Schema } from "effect"
import { MemberRow } from "../organizations/MemberRepository.js"
import { OrganizationRow } from "../organizations/OrganizationRepository.js"
import { findOne, rowOf, type Stored } from "../shared/Rows.js"

export const CollectionRow = rowOf(Collection)

/**
 * Reads an item of `table` (a space or a collection, by id) with what access to it is decided from, in one round trip:
 * the user's member record and organization (NULL when not a member), and for a member the organization's collections
 * in creation order, as `listAll` answers them.
 */
export const itemForAccess = <A>(sql: SqlClient.SqlClient, table: "spaces" | "collections", Item: Stored<A>) => {
  const find = findOne(
    Schema.Tuple(Schema.String, UserId),
    Schema.Struct({
      item: Item,
      member: Schema.NullOr(MemberRow),
      organization: Schema.NullOr(OrganizationRow),
      collections: Schema.Array(CollectionRow)
    }),
    ([id, userId]) =>
      sql`SELECT to_json(i) AS item, to_json(m) AS member, to_json(o) AS organization,
          CASE WHEN m.user_id IS NULL THEN '[]'::json ELSE coalesce(
            (SELECT json_agg(c ORDER BY c.created_at, c.id) FROM collections c WHERE c.organization_id = i.organization_id),
            '[]'::json
          ) END AS collections
        FROM ${sql(table)} i
        LEFT JOIN members m ON m.organization_id = i.organization_id AND m.user_id = ${userId}
        LEFT JOIN organizations o ON o.id = m.organization_id
        WHERE i.id = ${id}`
  )
  return (id: string, userId: UserId): Effect.Effect<Option.Option<ItemForAccess<A>>> =>
    Effect.map(find([id, userId]), (found) =>
      Option.map(found, ({ collections, item, member, organization }) => ({
        item,
        membership: member === null || organization === null ? Option.none() : Option.some({ member, organization }),
        collections
      })))
}
