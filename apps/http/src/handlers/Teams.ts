import { HttpApiBuilder } from "@effect/platform"
import { Teams } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { created, domain, listOf, organizationLocation, presentMember, presentTeam, PublicUrl } from "../Present.js"

export const TeamsLive = HttpApiBuilder.group(OctavoApi, "teams", (handlers) =>
  Effect.gen(function*() {
    const teams = yield* Teams
    const base = yield* PublicUrl
    const member = presentMember(base)
    return handlers
      .handle("list", ({ path, urlParams }) =>
        listOf(
          `teams:${path.organizationId}:${urlParams.owner ?? ""}:${urlParams.title ?? ""}`,
          urlParams,
          (page) => teams.list(path.organizationId, { owner: urlParams.owner, title: urlParams.title }, page),
          presentTeam
        ))
      .handle("create", ({ path, payload }) =>
        domain(teams.create(path.organizationId, payload)).pipe(Effect.flatMap((team) =>
          created(`${organizationLocation(base, path.organizationId)}/teams/${team.team.id}`, presentTeam(team))
        )))
      .handle("get", ({ path }) => domain(teams.get(path.organizationId, path.teamId)).pipe(Effect.map(presentTeam)))
      .handle("remove", ({ path }) => domain(teams.remove(path.organizationId, path.teamId)))
      .handle("rename", ({ path, payload }) =>
        domain(teams.rename(path.organizationId, path.teamId, payload.title)).pipe(Effect.map(presentTeam)))
      .handle("members", ({ path, urlParams }) =>
        listOf(
          `team-members:${path.teamId}`,
          urlParams,
          (page) => teams.listMembers(path.organizationId, path.teamId, page),
          (row) => ({ organization: member(row.member), team: { role: row.membership.role } })
        ))
      .handle("updateMembers", ({ path, payload }) => domain(teams.updateMembers(path.organizationId, path.teamId, payload)))
      .handle("putMember", ({ path, payload }) =>
        domain(teams.putMember(path.organizationId, path.teamId, path.userId, payload.role)))
      .handle("removeMember", ({ path }) => domain(teams.removeMember(path.organizationId, path.teamId, path.userId)))
  }))
