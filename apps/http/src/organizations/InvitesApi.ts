import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { InviteByEmailInput, InviteId, MemberRole, OrganizationId } from "@octavo/domain"
import { Schema } from "effect"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { OrganizationPath } from "./OrganizationsApi.js"
import { InvitedByEmailObject, InviteObject } from "./Wire.js"

const InvitePath = Schema.Struct({ organizationId: OrganizationId, inviteId: InviteId })
/** An invite's role; null invites guests. */
const RoleBody = Schema.Struct({ role: MemberRole })
/**
 * GitBook changes an invite's role with `role`, and a content invite's with `level`; Octavo's
 * invites are all to the organization, so either one sets its role.
 */
const InviteUpdate = Schema.Union(RoleBody, Schema.Struct({ level: MemberRole }))

export class InvitesApi extends HttpApiGroup.make("invites")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/link-invites")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(InviteObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/orgs/:organizationId/link-invites")
      .setPath(OrganizationPath)
      .setPayload(RoleBody)
      .addSuccess(InviteObject, Created)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/orgs/:organizationId/link-invites/:inviteId").setPath(InvitePath).addSuccess(InviteObject).pipe(
      errors(400, 403, 404)
    )
  )
  .add(HttpApiEndpoint.del("remove", "/v1/orgs/:organizationId/link-invites/:inviteId").setPath(InvitePath).pipe(errors(400, 403, 404)))
  .add(
    HttpApiEndpoint.patch("update", "/v1/orgs/:organizationId/link-invites/:inviteId")
      .setPath(InvitePath)
      .setPayload(InviteUpdate)
      .addSuccess(InviteObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    // GitBook answers an empty object, which its client parses.
    HttpApiEndpoint.post("join", "/v1/orgs/:organizationId/invites/:inviteId")
      .setPath(InvitePath)
      .addSuccess(Schema.Struct({}))
      .pipe(errors(400, 404, 409, 412))
  )
  .add(
    HttpApiEndpoint.post("byEmail", "/v1/orgs/:organizationId/invites")
      .setPath(OrganizationPath)
      .setPayload(InviteByEmailInput)
      .addSuccess(InvitedByEmailObject)
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
