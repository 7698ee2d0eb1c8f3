import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { CreateOrganizationInput, OrganizationId, UpdateOrganizationInput } from "@octavo/domain"
import { Schema } from "effect"
import { Created, ListOf, PageQuery } from "./Common.js"
import { Authentication } from "./Security.js"
import { OrganizationObject } from "./Wire.js"

export const OrganizationPath = Schema.Struct({ organizationId: OrganizationId })

export class OrganizationsApi extends HttpApiGroup.make("organizations")
  .add(HttpApiEndpoint.get("list", "/v1/orgs").setUrlParams(Schema.Struct(PageQuery)).addSuccess(ListOf(OrganizationObject)))
  .add(HttpApiEndpoint.post("create", "/v1/orgs").setPayload(CreateOrganizationInput).addSuccess(OrganizationObject, Created))
  .add(HttpApiEndpoint.get("get", "/v1/orgs/:organizationId").setPath(OrganizationPath).addSuccess(OrganizationObject))
  .add(
    HttpApiEndpoint.patch("update", "/v1/orgs/:organizationId")
      .setPath(OrganizationPath)
      .setPayload(UpdateOrganizationInput)
      .addSuccess(OrganizationObject)
  )
  .add(
    HttpApiEndpoint.get("byEmailDomain", "/v1/email-domains/:emailDomain/orgs")
      .setPath(Schema.Struct({ emailDomain: Schema.String }))
      .addSuccess(Schema.Struct({ organizations: Schema.Array(OrganizationObject) }))
  )
  .add(
    HttpApiEndpoint.post("ping", "/v1/orgs/:organizationId/ping")
      .setPath(OrganizationPath)
      .addSuccess(Schema.Struct({ serviceVisitorClaims: Schema.String }))
  )
  .middleware(Authentication)
{}
