import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { InviteByEmailInput, InviteId, OrganizationId, Role } from "@octavo/domain"
import { Schema } from "effect"
import { Created, ListOf, PageQuery } from "./Common.js"
import { Authentication } from "./Security.js"
import { InviteObject } from "./Wire.js"

const OrganizationPath = Schema.Struct({ organizationId: OrganizationId })
const InvitePath = Schema.Struct({ organizationId: OrganizationId, inviteId: InviteId })
const RoleBody = Schema.Struct({ role: Role })

export class InvitesApi extends HttpApiGroup.make("invites")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/link-invites")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(InviteObject))
  )
  .add(HttpApiEndpoint.post("create", "/v1/orgs/:organizationId/link-invites").setPath(OrganizationPath).setPayload(RoleBody).addSuccess(InviteObject, Created))
  .add(HttpApiEndpoint.get("get", "/v1/orgs/:organizationId/link-invites/:inviteId").setPath(InvitePath).addSuccess(InviteObject))
  .add(HttpApiEndpoint.del("remove", "/v1/orgs/:organizationId/link-invites/:inviteId").setPath(InvitePath))
  .add(HttpApiEndpoint.patch("update", "/v1/orgs/:organizationId/link-invites/:inviteId").setPath(InvitePath).setPayload(RoleBody).addSuccess(InviteObject))
  .add(HttpApiEndpoint.post("join", "/v1/orgs/:organizationId/invites/:inviteId").setPath(InvitePath))
  .add(
    HttpApiEndpoint.post("byEmail", "/v1/orgs/:organizationId/invites")
      .setPath(OrganizationPath)
      .setPayload(InviteByEmailInput)
      .addSuccess(Schema.Struct({ users: Schema.Array(Schema.String), invited: Schema.Array(Schema.String) }))
  )
  .middleware(Authentication)
{}
