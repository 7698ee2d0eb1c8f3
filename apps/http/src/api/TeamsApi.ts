import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  boundedString,
  CreateTeamInput,
  OrganizationId,
  TeamId,
  TeamMembersUpdate,
  TeamRole,
  TeamTitle,
  UserId
} from "@octavo/domain"
import { Schema } from "effect"
import { Created, ListOf, PageQuery } from "./Common.js"
import { Authentication } from "./Security.js"
import { MemberObject, TeamMembershipObject, TeamObject } from "./Wire.js"

const TeamsPath = Schema.Struct({ organizationId: OrganizationId })
const TeamPath = Schema.Struct({ organizationId: OrganizationId, teamId: TeamId })
const TeamMemberPath = Schema.Struct({ organizationId: OrganizationId, teamId: TeamId, userId: UserId })

export class TeamsApi extends HttpApiGroup.make("teams")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/teams")
      .setPath(TeamsPath)
      .setUrlParams(Schema.Struct({
        ...PageQuery,
        owner: Schema.optional(UserId),
        title: Schema.optional(boundedString({ max: 64 }))
      }))
      .addSuccess(ListOf(TeamObject))
  )
  .add(HttpApiEndpoint.put("create", "/v1/orgs/:organizationId/teams").setPath(TeamsPath).setPayload(CreateTeamInput).addSuccess(TeamObject, Created))
  .add(HttpApiEndpoint.get("get", "/v1/orgs/:organizationId/teams/:teamId").setPath(TeamPath).addSuccess(TeamObject))
  .add(HttpApiEndpoint.del("remove", "/v1/orgs/:organizationId/teams/:teamId").setPath(TeamPath))
  .add(
    HttpApiEndpoint.patch("rename", "/v1/orgs/:organizationId/teams/:teamId")
      .setPath(TeamPath)
      .setPayload(Schema.Struct({ title: TeamTitle }))
      .addSuccess(TeamObject)
  )
  .add(
    HttpApiEndpoint.get("members", "/v1/orgs/:organizationId/teams/:teamId/members")
      .setPath(TeamPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(Schema.Struct({ organization: MemberObject, team: TeamMembershipObject })))
  )
  .add(HttpApiEndpoint.put("updateMembers", "/v1/orgs/:organizationId/teams/:teamId/members").setPath(TeamPath).setPayload(TeamMembersUpdate))
  .add(
    HttpApiEndpoint.put("putMember", "/v1/orgs/:organizationId/teams/:teamId/members/:userId")
      .setPath(TeamMemberPath)
      .setPayload(Schema.Struct({ role: Schema.optional(TeamRole) }))
  )
  .add(HttpApiEndpoint.del("removeMember", "/v1/orgs/:organizationId/teams/:teamId/members/:userId").setPath(TeamMemberPath))
  .middleware(Authentication)
{}
