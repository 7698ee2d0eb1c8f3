import { Effect, Option } from "effect"
import type { Member } from "./Organization.js"
import { isAdmin, teamPermissions, type TeamPermissions } from "./Policy.js"
import { TeamRepository, type TeamWithCount } from "./Ports.js"

/** A team with what the caller may do with it. */
export interface TeamView extends TeamWithCount {
  readonly permissions: TeamPermissions
}

/** Makes a team's view for a caller: an admin manages every team, anyone else only the teams it owns. */
export const makeTeamView = Effect.map(
  TeamRepository,
  (teams) => (caller: Member, team: TeamWithCount): Effect.Effect<TeamView> =>
    isAdmin(caller)
      ? Effect.succeed({ ...team, permissions: teamPermissions(caller, undefined) })
      : Effect.map(teams.findMembership(team.team.id, caller.userId), (own) => ({
        ...team,
        permissions: teamPermissions(caller, Option.getOrUndefined(own))
      }))
)
