import { HttpApiBuilder } from "@effect/platform"
import { Members } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { domain, listOf, presentMember, presentTeam, PublicUrl } from "../Present.js"

export const MembersLive = HttpApiBuilder.group(OctavoApi, "members", (handlers) =>
  Effect.gen(function*() {
    const members = yield* Members
    const present = presentMember(yield* PublicUrl)
    return handlers
      .handle("list", ({ path, urlParams }) => {
        const sort = urlParams.sort ?? "joinedAt"
        const order = urlParams.order ?? "desc"
        const filter = { role: urlParams.role, search: urlParams.search, sort, order }
        // The token names the filters too: a token is only good for the list it came from.
        const list = `members:${path.organizationId}:${sort}:${order}:${urlParams.role ?? ""}:${urlParams.search ?? ""}`
        return listOf(list, urlParams, (page) => members.list(path.organizationId, filter, page), present)
      })
      .handle("get", ({ path }) => domain(members.get(path.organizationId, path.userId)).pipe(Effect.map(present)))
      .handle("remove", ({ path }) => domain(members.remove(path.organizationId, path.userId)))
      .handle("update", ({ path, payload }) =>
        domain(members.updateRole(path.organizationId, path.userId, payload.role)).pipe(Effect.map(present)))
      .handle("markSso", ({ path }) => domain(members.markSso(path.organizationId, path.userId)).pipe(Effect.map(present)))
      .handle("teams", ({ path, urlParams }) =>
        listOf(
          `member-teams:${path.organizationId}:${path.userId}:${urlParams.title ?? ""}`,
          urlParams,
          (page) => members.teamsOf(path.organizationId, path.userId, { title: urlParams.title }, page),
          ({ membership, team }) => ({ team: presentTeam(team), member: { role: membership.role } })
        ))
  }))
