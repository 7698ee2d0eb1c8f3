import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { CreateOrganizationInput, OrganizationId, StoredString, UpdateOrganizationInput } from "@octavo/domain"
import { Schema } from "effect"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { OrganizationObject } from "./Wire.js"

export const OrganizationPath = Schema.Struct({ organizationId: OrganizationId })

export class OrganizationsApi extends HttpApiGroup.make("organizations")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs").setUrlParams(Schema.Struct(PageQuery)).addSuccess(ListOf(OrganizationObject)).pipe(errors(400))
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/orgs").setPayload(CreateOrganizationInput).addSuccess(OrganizationObject, Created).pipe(
      errors(400, 409)
    )
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/orgs/:organizationId").setPath(OrganizationPath).addSuccess(OrganizationObject).pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.patch("update", "/v1/orgs/:organizationId")
      .setPath(OrganizationPath)
      .setPayload(UpdateOrganizationInput)
      .addSuccess(OrganizationObject)
      .pipe(errors(400, 403, 404, 409, 412))
  )
  .add(
    HttpApiEndpoint.get("byEmailDomain", "/v1/email-domains/:emailDomain/orgs")
      .setPath(Schema.Struct({ emailDomain: StoredString }))
      .addSuccess(Schema.Struct({ organizations: Schema.Array(OrganizationObject) }))
      .pipe(errors(400))
  )
  .add(
    HttpApiEndpoint.post("ping", "/v1/orgs/:organizationId/ping")
      .setPath(OrganizationPath)
      .addSuccess(Schema.Struct({ serviceVisitorClaims: Schema.String }))
      .pipe(errors(400, 404))
  )
  .middleware(Authentication)
{}
