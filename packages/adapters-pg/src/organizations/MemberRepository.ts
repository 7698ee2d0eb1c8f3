import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { Acquaintances, conflicts, Member, MemberRepository, OrganizationId, UserId } from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { UserRow } from "../identity/UserRepository.js"
import { OrganizationRow } from "./OrganizationRepository.js"
import { execute, findAll, findOne, rowOf, single, write } from "../shared/Rows.js"
import { conflictOnUnique, containsIgnoringCase, selectPage } from "../shared/Sql.js"

export const MemberRow = rowOf(Member)

/** A member with its user and its number of teams (`withUser`), as lists show them. */
const MemberWithUserRow = Schema.Struct({ member: MemberRow, user: UserRow, teams: Schema.Number })

/** A member record with its organization, both rows as JSON documents. */
const MembershipRow = Schema.Struct({ member: MemberRow, organization: OrganizationRow })

export const MemberRepositoryLive = Layer.effect(
  MemberRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)

    // A member with its user and its number of teams in the organization, for lists and lookups.
    const withUser = sql`to_json(m) AS member, to_json(u) AS "user", (
        SELECT count(*)::int FROM team_memberships tm
        WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id
      ) AS teams`

    const insert = write(MemberRow, (row) => sql`INSERT INTO members ${sql.insert(row)}`)
    const update = execute(MemberRow, (row) =>
      sql`UPDATE members SET ${sql.update(row, ["organization_id", "user_id"])}
        WHERE organization_id = ${row["organization_id"]} AND user_id = ${row["user_id"]}`)
    const find = findOne(
      Schema.Tuple(OrganizationId, UserId),
      MemberRow,
      ([organizationId, userId]) => sql`SELECT * FROM members WHERE organization_id = ${organizationId} AND user_id = ${userId}`
    )
    const findWithOrganization = findOne(
      Schema.Tuple(OrganizationId, UserId),
      MembershipRow,
      ([organizationId, userId]) =>
        sql`SELECT to_json(m) AS member, to_json(o) AS organization FROM members m JOIN organizations o ON o.id = m.organization_id
          WHERE m.organization_id = ${organizationId} AND m.user_id = ${userId}`
    )
    const findMany = findAll(
      Schema.Tuple(OrganizationId, Schema.Array(UserId)),
      MemberWithUserRow,
      ([organizationId, userIds]) =>
        sql`SELECT ${withUser} FROM members m JOIN users u ON u.id = m.user_id
          WHERE m.organization_id = ${organizationId} AND ${sql.in("m.user_id", userIds)}`
    )
    const membershipsOf = findAll(
      Schema.Tuple(UserId, Schema.Array(OrganizationId)),
      MemberRow,
      ([userId, organizationIds]) => sql`SELECT * FROM members WHERE user_id = ${userId} AND ${sql.in("organization_id", organizationIds)}`
    )

    return MemberRepository.of({
      insert: (member) => guarded(insert(member), () => conflicts.alreadyMember()),
      update,
      delete: (organizationId, userId) =>
        sql.withTransaction(Effect.zipRight(
          sql`DELETE FROM team_memberships WHERE organization_id = ${organizationId} AND user_id = ${userId}`,
          sql`DELETE FROM members WHERE organization_id = ${organizationId} AND user_id = ${userId}`
        )).pipe(Effect.asVoid, Effect.orDie),
      find: (organizationId, userId) => find([organizationId, userId]),
      findWithOrganization: (organizationId, userId) => findWithOrganization([organizationId, userId]),
      list: (organizationId, filter, page) => {
        // Names compare byte by byte (COLLATE "C"): JavaScript's order, as in memory, short of characters beyond U+FFFF.
        const sortColumn = filter.sort === "name"
          ? "(u.display_name COLLATE \"C\")"
          : filter.sort === "lastSeenAt"
          ? "m.last_seen_at"
          : "m.joined_at"
        const where: Array<Fragment> = [sql`m.organization_id = ${organizationId}`]
        if (filter.sort === "lastSeenAt") where.push(sql`m.last_seen_at IS NOT NULL`)
        if (filter.role === null) where.push(sql`m.role IS NULL`)
        else if (filter.role !== undefined) where.push(sql`m.role = ${filter.role}`)
        if (filter.search !== undefined) {
          where.push(sql.or([
            containsIgnoringCase(sql, "u.display_name", filter.search),
            containsIgnoringCase(sql, "u.email", filter.search)
          ]))
        }
        return selectPage(sql, {
          select: withUser,
          from: sql`FROM members m JOIN users u ON u.id = m.user_id`,
          where,
          keyset: { value: sortColumn, id: "m.user_id", orderKey: filter.sort === "name" },
          order: filter.order,
          page,
          row: MemberWithUserRow,
          keysetOf: ({ member, user }) =>
            filter.sort === "name"
              ? [user.displayName, member.userId]
              : [(filter.sort === "lastSeenAt" ? member.lastSeenAt ?? member.joinedAt : member.joinedAt).getTime(), member.userId]
        })
      },
      findMany: (organizationId, userIds) => userIds.length === 0 ? Effect.succeed([]) : findMany([organizationId, userIds]),
      membershipsOf: (userId, organizationIds) =>
        organizationIds.length === 0 ? Effect.succeed([]) : membershipsOf([userId, organizationIds]),
      // FOR UPDATE: in a transaction, the counted members stay locked until it ends (see the port).
      countWithRole: (organizationId, role) =>
        sql`SELECT user_id FROM members WHERE organization_id = ${organizationId} AND role = ${role} FOR UPDATE`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)

/** Users share an organization when both are members of it. */
export const AcquaintancesLive = Layer.effect(
  Acquaintances,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const shared = single(Schema.Tuple(UserId, UserId), Schema.Struct({ shared: Schema.Boolean }), ([a, b]) =>
      sql`SELECT EXISTS (
          SELECT 1 FROM members ma JOIN members mb ON mb.organization_id = ma.organization_id
          WHERE ma.user_id = ${a} AND mb.user_id = ${b}
        ) AS shared`)
    return Acquaintances.of({
      shareAnOrganization: (a, b) => Effect.map(shared([a, b]), (row) => row.shared)
    })
  })
)
