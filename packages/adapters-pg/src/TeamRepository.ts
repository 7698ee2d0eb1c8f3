import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import {
  type OrganizationId,
  type Team,
  type TeamId,
  type TeamMembership,
  TeamRepository,
  type TeamRole,
  type TeamWithCount,
  type UserId
} from "@octavo/domain"
import { Effect, Layer, Option } from "effect"
import { containsIgnoringCase, type Millis, selectPage, toDate } from "./Sql.js"

interface TeamRow {
  readonly id: TeamId
  readonly organization_id: OrganizationId
  readonly title: string
  readonly created_at: Millis
}

interface TeamWithCountRow extends TeamRow {
  readonly member_count: number
}

interface MembershipRow {
  readonly team_id: TeamId
  readonly organization_id: OrganizationId
  readonly user_id: UserId
  readonly role: TeamRole
  readonly added_at: Millis
}

const toTeam = (row: TeamRow): Team => ({
  id: row.id,
  organizationId: row.organization_id,
  title: row.title,
  createdAt: toDate(row.created_at)
})

const toTeamWithCount = (row: TeamWithCountRow): TeamWithCount => ({ team: toTeam(row), members: row.member_count })

const toMembership = (row: MembershipRow): TeamMembership => ({
  teamId: row.team_id,
  organizationId: row.organization_id,
  userId: row.user_id,
  role: row.role,
  addedAt: toDate(row.added_at)
})

const teamKeyset = ({ team }: TeamWithCount) => [team.createdAt.getTime(), team.id] as const

export const TeamRepositoryLive = Layer.effect(
  TeamRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const memberCount = sql`(SELECT count(*)::int FROM team_memberships c WHERE c.team_id = t.id) AS member_count`

    return TeamRepository.of({
      insert: (team) =>
        sql`INSERT INTO teams (id, organization_id, title, created_at)
          VALUES (${team.id}, ${team.organizationId}, ${team.title}, ${team.createdAt.getTime()})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      update: (team) =>
        sql`UPDATE teams SET organization_id = ${team.organizationId}, title = ${team.title},
            created_at = ${team.createdAt.getTime()}
          WHERE id = ${team.id}`.pipe(Effect.asVoid, Effect.orDie),
      delete: (id) =>
        sql.withTransaction(Effect.zipRight(
          sql`DELETE FROM team_memberships WHERE team_id = ${id}`,
          sql`DELETE FROM teams WHERE id = ${id}`
        )).pipe(Effect.asVoid, Effect.orDie),
      findById: (id) =>
        sql<TeamWithCountRow>`SELECT t.*, ${memberCount} FROM teams t WHERE t.id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toTeamWithCount)),
          Effect.orDie
        ),
      list: (organizationId, filter, page) => {
        const where: Array<Fragment> = [sql`t.organization_id = ${organizationId}`]
        if (filter.title !== undefined) where.push(containsIgnoringCase(sql, "t.title", filter.title))
        if (filter.ownedBy !== undefined) {
          where.push(sql`EXISTS (SELECT 1 FROM team_memberships o
            WHERE o.team_id = t.id AND o.user_id = ${filter.ownedBy} AND o.role = 'owner')`)
        }
        return selectPage(sql, {
          select: sql`t.*, ${memberCount}`,
          from: sql`FROM teams t`,
          where,
          keyset: { value: "t.created_at", id: "t.id" },
          order: "asc",
          page,
          toItem: toTeamWithCount,
          keysetOf: teamKeyset
        })
      },
      findMembership: (teamId, userId) =>
        sql<MembershipRow>`SELECT * FROM team_memberships WHERE team_id = ${teamId} AND user_id = ${userId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toMembership)),
          Effect.orDie
        ),
      upsertMembership: (membership) =>
        sql`INSERT INTO team_memberships (team_id, organization_id, user_id, role, added_at)
          VALUES (${membership.teamId}, ${membership.organizationId}, ${membership.userId}, ${membership.role},
            ${membership.addedAt.getTime()})
          ON CONFLICT (team_id, user_id) DO UPDATE SET role = EXCLUDED.role`.pipe(Effect.asVoid, Effect.orDie),
      deleteMembership: (teamId, userId) =>
        sql`DELETE FROM team_memberships WHERE team_id = ${teamId} AND user_id = ${userId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      listMemberships: (teamId, page) =>
        selectPage(sql, {
          select: sql`tm.*`,
          from: sql`FROM team_memberships tm`,
          where: [sql`tm.team_id = ${teamId}`],
          keyset: { value: "tm.added_at", id: "tm.user_id" },
          order: "asc",
          page,
          toItem: toMembership,
          keysetOf: (membership) => [membership.addedAt.getTime(), membership.userId]
        }),
      listForUser: (organizationId, userId, filter, page) => {
        const where: Array<Fragment> = [sql`tm.organization_id = ${organizationId}`, sql`tm.user_id = ${userId}`]
        if (filter.title !== undefined) where.push(containsIgnoringCase(sql, "t.title", filter.title))
        return selectPage(sql, {
          select: sql`t.*, ${memberCount}, to_json(tm) AS membership`,
          from: sql`FROM team_memberships tm JOIN teams t ON t.id = tm.team_id`,
          where,
          keyset: { value: "t.created_at", id: "t.id" },
          order: "asc",
          page,
          toItem: (row: TeamWithCountRow & { readonly membership: MembershipRow }) => ({
            team: toTeamWithCount(row),
            membership: toMembership(row.membership)
          }),
          keysetOf: ({ team }) => teamKeyset(team)
        })
      },
      countForUser: (organizationId, userId) =>
        sql<{ readonly count: number }>`SELECT count(*)::int AS count FROM team_memberships
          WHERE organization_id = ${organizationId} AND user_id = ${userId}`.pipe(
          Effect.map((rows) => rows[0]?.count ?? 0),
          Effect.orDie
        )
    })
  })
)
