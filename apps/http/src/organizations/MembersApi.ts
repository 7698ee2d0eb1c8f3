import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { boundedString, MemberRole, MemberSort, OrganizationId, Order, Role, UserId } from "@octavo/domain"
import { Schema } from "effect"
import { ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { OrganizationPath } from "./OrganizationsApi.js"
import { MemberObject, TeamMembershipObject, TeamObject } from "./Wire.js"

export const MemberPath = Schema.Struct({ organizationId: OrganizationId, userId: UserId })

export class MembersApi extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/members")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct({
        ...PageQuery,
        order: Schema.optional(Order),
        /** A role, or `guest` for the members without one. */
        role: Schema.optional(Schema.Union(Role, Schema.Literal("guest"))),
        search: Schema.optional(boundedString({ max: 512 })),
        sort: Schema.optional(MemberSort)
      }))
      .addSuccess(ListOf(MemberObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/orgs/:organizationId/members/:userId").setPath(MemberPath).addSuccess(MemberObject).pipe(
      errors(400, 403, 404)
    )
  )
  .add(HttpApiEndpoint.del("remove", "/v1/orgs/:organizationId/members/:userId").setPath(MemberPath).pipe(errors(400, 403, 404, 409)))
  .add(
    HttpApiEndpoint.patch("update", "/v1/orgs/:organizationId/members/:userId")
      .setPath(MemberPath)
      .setPayload(Schema.Struct({ role: Schema.optional(MemberRole) }))
      .addSuccess(MemberObject)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.post("markSso", "/v1/orgs/:organizationId/members/:userId/sso")
      .setPath(MemberPath)
      .addSuccess(MemberObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("teams", "/v1/orgs/:organizationId/members/:userId/teams")
      .setPath(MemberPath)
      .setUrlParams(Schema.Struct({ ...PageQuery, title: Schema.optional(boundedString({ max: 64 })) }))
      .addSuccess(ListOf(Schema.Struct({ team: TeamObject, member: TeamMembershipObject })))
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
