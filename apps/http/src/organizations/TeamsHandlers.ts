import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { teamListKey, teamMemberListKey, TeamMembers, Teams } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { created, listOf, PublicUrl } from "../shared/Handlers.js"
import { presentTeam, presentTeamMember, teamLocation } from "./Present.js"
import { TeamsApi } from "./TeamsApi.js"

export const TeamsLive = HttpApiBuilder.group(OctavoBase.add(TeamsApi), "teams", (handlers) =>
  Effect.gen(function*() {
    const teams = yield* Teams
    const teamMembers = yield* TeamMembers
    const base = yield* PublicUrl
    const member = presentTeamMember(base)
    return handlers
      .handle("list", ({ path, urlParams }) => {
        const filter = { owner: urlParams.owner, title: urlParams.title }
        return listOf(teamListKey(path.organizationId, filter), urlParams, (page) =>
          teams.list(path.organizationId, filter, page), presentTeam)
      })
      .handle("create", ({ path, payload }) =>
        domain(teams.create(path.organizationId, payload)).pipe(Effect.flatMap((team) =>
          created(teamLocation(base, team), presentTeam(team))
        )))
      .handle("get", ({ path }) =>
        domain(teams.get(path.organizationId, path.teamId)).pipe(Effect.map(presentTeam)))
      .handle("remove", ({ path }) =>
        domain(teams.remove(path.organizationId, path.teamId)))
      .handle("rename", ({ path, payload }) =>
        domain(teams.rename(path.organizationId, path.teamId, payload.title)).pipe(Effect.map(presentTeam)))
      .handle("members", ({ path, urlParams }) =>
        listOf(teamMemberListKey(path.teamId), urlParams, (page) =>
          teamMembers.listMembers(path.organizationId, path.teamId, page), member))
      .handle("updateMembers", ({ path, payload }) =>
        domain(teamMembers.updateMembers(path.organizationId, path.teamId, payload)))
      .handle("putMember", ({ path, payload }) =>
        domain(teamMembers.putMember(path.organizationId, path.teamId, path.userId, payload?.role)))
      .handle("removeMember", ({ path }) =>
        domain(teamMembers.removeMember(path.organizationId, path.teamId, path.userId)))
  }))
