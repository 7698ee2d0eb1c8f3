import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { boundedString, CreateTeamInput, OrganizationId, TeamId, TeamMembersUpdate, TeamRole, TeamTitle, UserId } from "@octavo/domain"
import { Schema } from "effect"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { OrganizationPath } from "./OrganizationsApi.js"
import { TeamMemberObject, TeamObject } from "./Wire.js"

const TeamPath = Schema.Struct({ organizationId: OrganizationId, teamId: TeamId })
const TeamMemberPath = Schema.Struct({ organizationId: OrganizationId, teamId: TeamId, userId: UserId })

export class TeamsApi extends HttpApiGroup.make("teams")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/teams")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct({
        ...PageQuery,
        owner: Schema.optional(UserId),
        title: Schema.optional(boundedString({ max: 64 }))
      }))
      .addSuccess(ListOf(TeamObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.put("create", "/v1/orgs/:organizationId/teams")
      .setPath(OrganizationPath)
      .setPayload(CreateTeamInput)
      .addSuccess(TeamObject, Created)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/orgs/:organizationId/teams/:teamId").setPath(TeamPath).addSuccess(TeamObject).pipe(
      errors(400, 403, 404)
    )
  )
  .add(HttpApiEndpoint.del("remove", "/v1/orgs/:organizationId/teams/:teamId").setPath(TeamPath).pipe(errors(400, 403, 404)))
  .add(
    HttpApiEndpoint.patch("rename", "/v1/orgs/:organizationId/teams/:teamId")
      .setPath(TeamPath)
      .setPayload(Schema.Struct({ title: TeamTitle }))
      .addSuccess(TeamObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("members", "/v1/orgs/:organizationId/teams/:teamId/members")
      .setPath(TeamPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(TeamMemberObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.put("updateMembers", "/v1/orgs/:organizationId/teams/:teamId/members")
      .setPath(TeamPath)
      .setPayload(TeamMembersUpdate)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.put("putMember", "/v1/orgs/:organizationId/teams/:teamId/members/:userId")
      .setPath(TeamMemberPath)
      // GitBook's body is optional: none (read as null) adds a member with its role unchanged.
      .setPayload(Schema.NullOr(Schema.Struct({ role: Schema.optional(TeamRole) })))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.del("removeMember", "/v1/orgs/:organizationId/teams/:teamId/members/:userId").setPath(TeamMemberPath).pipe(
      errors(400, 403, 404)
    )
  )
  .middleware(Authentication)
{}
