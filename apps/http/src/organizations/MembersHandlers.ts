import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { memberListKey, Members, memberTeamsListKey } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { listOf, PublicUrl } from "../shared/Handlers.js"
import { MembersApi } from "./MembersApi.js"
import { presentMember, presentMemberTeam } from "./Present.js"

export const MembersLive = HttpApiBuilder.group(OctavoBase.add(MembersApi), "members", (handlers) =>
  Effect.gen(function*() {
    const members = yield* Members
    const present = presentMember(yield* PublicUrl)
    return handlers
      .handle("list", ({ path, urlParams }) => {
        const filter = {
          role: urlParams.role === "guest" ? null : urlParams.role,
          search: urlParams.search,
          sort: urlParams.sort ?? "joinedAt",
          order: urlParams.order ?? "desc"
        }
        return listOf(memberListKey(path.organizationId, filter), urlParams, (page) =>
          members.list(path.organizationId, filter, page), present)
      })
      .handle("get", ({ path }) =>
        domain(members.get(path.organizationId, path.userId)).pipe(Effect.map(present)))
      .handle("remove", ({ path }) =>
        domain(members.remove(path.organizationId, path.userId)))
      .handle("update", ({ path, payload }) =>
        domain(members.updateRole(path.organizationId, path.userId, payload.role)).pipe(Effect.map(present)))
      .handle("markSso", ({ path }) =>
        domain(members.markSso(path.organizationId, path.userId)).pipe(Effect.map(present)))
      .handle("teams", ({ path, urlParams }) =>
        listOf(
          memberTeamsListKey(path.organizationId, path.userId, urlParams.title),
          urlParams,
          (page) =>
            members.teamsOf(path.organizationId, path.userId, { title: urlParams.title }, page),
          presentMemberTeam
        ))
  }))
