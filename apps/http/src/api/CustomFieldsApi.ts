import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { CreateCustomFieldInput, OrganizationId, UpdateCustomFieldInput } from "@octavo/domain"
import { Schema } from "effect"
import { Created, ListOf, PageQuery } from "./Common.js"
import { Authentication } from "./Security.js"
import { CustomFieldObject } from "./Wire.js"

const OrganizationPath = Schema.Struct({ organizationId: OrganizationId })
const FieldPath = Schema.Struct({ organizationId: OrganizationId, fieldName: Schema.String })

export class CustomFieldsApi extends HttpApiGroup.make("customFields")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/custom-fields")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(CustomFieldObject))
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/orgs/:organizationId/custom-fields")
      .setPath(OrganizationPath)
      .setPayload(CreateCustomFieldInput)
      .addSuccess(CustomFieldObject, Created)
  )
  .add(HttpApiEndpoint.get("get", "/v1/orgs/:organizationId/custom-fields/:fieldName").setPath(FieldPath).addSuccess(CustomFieldObject))
  .add(HttpApiEndpoint.del("remove", "/v1/orgs/:organizationId/custom-fields/:fieldName").setPath(FieldPath))
  .add(
    HttpApiEndpoint.patch("update", "/v1/orgs/:organizationId/custom-fields/:fieldName")
      .setPath(FieldPath)
      .setPayload(UpdateCustomFieldInput)
      .addSuccess(CustomFieldObject)
  )
  .middleware(Authentication)
{}
