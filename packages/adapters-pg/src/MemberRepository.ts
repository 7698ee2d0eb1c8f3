import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  Acquaintances,
  conflicts,
  type Member,
  MemberRepository,
  type MemberRole,
  type MemberWithUser,
  type OrganizationId,
  type UserId
} from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { conflictOnUnique, containsIgnoringCase, type Millis, selectPage, toDate, toOptionalDate } from "./Sql.js"
import { toUser, type UserRow } from "./UserRepository.js"

interface MemberRow {
  readonly organization_id: OrganizationId
  readonly user_id: UserId
  readonly role: MemberRole
  readonly joined_at: Millis
  readonly last_seen_at: Millis | null
  readonly sso: boolean
  readonly disabled: boolean
}

const toMember = (row: MemberRow): Member => {
  const lastSeenAt = toOptionalDate(row.last_seen_at)
  return {
    organizationId: row.organization_id,
    userId: row.user_id,
    role: row.role,
    joinedAt: toDate(row.joined_at),
    ...(lastSeenAt === undefined ? {} : { lastSeenAt }),
    sso: row.sso,
    disabled: row.disabled
  }
}

interface MemberWithUserRow extends MemberRow {
  readonly user_record: UserRow
  readonly team_count: number
}

const toMemberWithUser = (row: MemberWithUserRow): MemberWithUser => ({
  member: toMember(row),
  user: toUser(row.user_record),
  teams: row.team_count
})

export const MemberRepositoryLive = Layer.effect(
  MemberRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const guarded = conflictOnUnique(sql)

    // A member with its user and its number of teams in the organization, for lists and lookups.
    const withUser = sql`m.*, to_json(u) AS user_record, (
        SELECT count(*)::int FROM team_memberships tm
        WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id
      ) AS team_count`

    return MemberRepository.of({
      insert: (member) =>
        guarded(
          sql`INSERT INTO members (organization_id, user_id, role, joined_at, last_seen_at, sso, disabled)
            VALUES (${member.organizationId}, ${member.userId}, ${member.role}, ${member.joinedAt.getTime()},
              ${member.lastSeenAt?.getTime() ?? null}, ${member.sso}, ${member.disabled})`,
          () => conflicts.alreadyMember()
        ).pipe(Effect.asVoid),
      update: (member) =>
        sql`UPDATE members SET
            role = ${member.role},
            joined_at = ${member.joinedAt.getTime()},
            last_seen_at = ${member.lastSeenAt?.getTime() ?? null},
            sso = ${member.sso},
            disabled = ${member.disabled}
          WHERE organization_id = ${member.organizationId} AND user_id = ${member.userId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      delete: (organizationId, userId) =>
        sql.withTransaction(Effect.zipRight(
          sql`DELETE FROM team_memberships WHERE organization_id = ${organizationId} AND user_id = ${userId}`,
          sql`DELETE FROM members WHERE organization_id = ${organizationId} AND user_id = ${userId}`
        )).pipe(Effect.asVoid, Effect.orDie),
      find: (organizationId, userId) =>
        sql<MemberRow>`SELECT * FROM members WHERE organization_id = ${organizationId} AND user_id = ${userId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toMember)),
          Effect.orDie
        ),
      list: (organizationId, filter, page) => {
        const sortColumn = filter.sort === "lastSeenAt" ? "m.last_seen_at" : "m.joined_at"
        const where: Array<Fragment> = [sql`m.organization_id = ${organizationId}`]
        if (filter.sort === "lastSeenAt") where.push(sql`m.last_seen_at IS NOT NULL`)
        if (filter.role !== undefined) where.push(sql`m.role = ${filter.role}`)
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
          keyset: { value: sortColumn, id: "m.user_id" },
          order: filter.order,
          page,
          toItem: toMemberWithUser,
          keysetOf: ({ member }) => [
            (filter.sort === "lastSeenAt" ? member.lastSeenAt ?? member.joinedAt : member.joinedAt).getTime(),
            member.userId
          ]
        })
      },
      findMany: (organizationId, userIds) =>
        userIds.length === 0
          ? Effect.succeed([])
          : sql<MemberWithUserRow>`SELECT ${withUser} FROM members m JOIN users u ON u.id = m.user_id
              WHERE m.organization_id = ${organizationId} AND ${sql.in("m.user_id", userIds)}`.pipe(
            Effect.map((rows) => rows.map(toMemberWithUser)),
            Effect.orDie
          ),
      membershipsOf: (userId, organizationIds) =>
        organizationIds.length === 0
          ? Effect.succeed([])
          : sql<MemberRow>`SELECT * FROM members
              WHERE user_id = ${userId} AND ${sql.in("organization_id", organizationIds)}`.pipe(
            Effect.map((rows) => rows.map(toMember)),
            Effect.orDie
          ),
      // FOR UPDATE: in a transaction, the counted members stay locked until it ends (see the port).
      countWithRole: (organizationId, role) =>
        sql<{ readonly user_id: string }>`SELECT user_id FROM members
          WHERE organization_id = ${organizationId} AND role = ${role} FOR UPDATE`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)

/** Users share an organization when both are members of it. */
export const AcquaintancesLive = Layer.effect(
  Acquaintances,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Acquaintances.of({
      shareAnOrganization: (a, b) =>
        sql<{ readonly shared: boolean }>`SELECT EXISTS (
            SELECT 1 FROM members ma JOIN members mb ON mb.organization_id = ma.organization_id
            WHERE ma.user_id = ${a} AND mb.user_id = ${b}
          ) AS shared`.pipe(
          Effect.map((rows) => rows[0]?.shared ?? false),
          Effect.orDie
        )
    }))
)
