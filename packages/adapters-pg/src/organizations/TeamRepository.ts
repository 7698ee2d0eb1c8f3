import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { Team, TeamId, TeamMembership, TeamRepository, UserId } from "@octavo/domain"
import { Effect, Layer, Schema } from "effect"
import { execute, findOne, rowOf } from "../shared/Rows.js"
import { byCreation, containsIgnoringCase, selectPage } from "../shared/Sql.js"

const TeamRow = rowOf(Team)
const MembershipRow = rowOf(TeamMembership)

/** A team with its number of members (`withCount`). */
const TeamWithCountRow = Schema.Struct({ team: TeamRow, members: Schema.Number })

/** Both lists of teams go by the teams' creation. */
const teams = byCreation("t")

export const TeamRepositoryLive = Layer.effect(
  TeamRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const memberCount = sql`(SELECT count(*)::int FROM team_memberships c WHERE c.team_id = t.id)`
    const withCount = sql`to_json(t) AS team, ${memberCount} AS members`

    const findById = findOne(TeamId, TeamWithCountRow, (id) => sql`SELECT ${withCount} FROM teams t WHERE t.id = ${id}`)
    const findMembership = findOne(
      Schema.Tuple(TeamId, UserId),
      MembershipRow,
      ([teamId, userId]) => sql`SELECT * FROM team_memberships WHERE team_id = ${teamId} AND user_id = ${userId}`
    )

    /** Whether the team `t` has the user in the team role `owner`. */
    const ownedBy = (userId: UserId): Fragment =>
      sql`EXISTS (SELECT 1 FROM team_memberships o WHERE o.team_id = t.id AND o.user_id = ${userId} AND o.role = 'owner')`

    return TeamRepository.of({
      insert: execute(TeamRow, (row) => sql`INSERT INTO teams ${sql.insert(row)}`),
      update: execute(TeamRow, (row) => sql`UPDATE teams SET ${sql.update(row, ["id"])} WHERE id = ${row["id"]}`),
      delete: (id) =>
        sql.withTransaction(Effect.zipRight(
          sql`DELETE FROM team_memberships WHERE team_id = ${id}`,
          sql`DELETE FROM teams WHERE id = ${id}`
        )).pipe(Effect.asVoid, Effect.orDie),
      findById,
      list: (organizationId, filter, page) => {
        const where: Array<Fragment> = [sql`t.organization_id = ${organizationId}`]
        if (filter.title !== undefined) where.push(containsIgnoringCase(sql, "t.title", filter.title))
        if (filter.ownedBy !== undefined) {
          where.push(ownedBy(filter.ownedBy))
        }
        return selectPage(sql, {
          select: withCount,
          from: sql`FROM teams t`,
          where,
          ...teams,
          page,
          row: TeamWithCountRow,
          keysetOf: ({ team }) => teams.keysetOf(team)
        })
      },
      ownsAny: (organizationId, userId) =>
        Effect.map(
          sql<{ readonly owns: boolean }>`SELECT EXISTS (SELECT 1 FROM teams t
            WHERE t.organization_id = ${organizationId} AND ${ownedBy(userId)}) AS owns`,
          // node-postgres reads a boolean as true or false, PGlite too.
          (rows) => rows[0]?.owns === true
        ).pipe(Effect.orDie),
      findMembership: (teamId, userId) => findMembership([teamId, userId]),
      upsertMembership: execute(MembershipRow, (row) =>
        sql`INSERT INTO team_memberships ${sql.insert(row)}
          ON CONFLICT (team_id, user_id) DO UPDATE SET role = EXCLUDED.role`),
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
          row: MembershipRow,
          keysetOf: (membership) => [membership.addedAt.getTime(), membership.userId]
        }),
      listForUser: (organizationId, userId, filter, page) => {
        const where: Array<Fragment> = [sql`tm.organization_id = ${organizationId}`, sql`tm.user_id = ${userId}`]
        if (filter.title !== undefined) where.push(containsIgnoringCase(sql, "t.title", filter.title))
        return selectPage(sql, {
          select: sql`json_build_object('team', to_json(t), 'members', ${memberCount}) AS team,
            to_json(tm) AS membership`,
          from: sql`FROM team_memberships tm JOIN teams t ON t.id = tm.team_id`,
          where,
          ...teams,
          page,
          row: Schema.Struct({ team: TeamWithCountRow, membership: MembershipRow }),
          keysetOf: ({ team }) => teams.keysetOf(team.team)
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
