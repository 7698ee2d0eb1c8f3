import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { CreateCustomFieldInput, OrganizationId, StoredString, UpdateCustomFieldInput } from "@octavo/domain"
import { Schema } from "effect"
import { OrganizationPath } from "../organizations/OrganizationsApi.js"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { CustomFieldObject } from "./Wire.js"

const FieldPath = Schema.Struct({ organizationId: OrganizationId, fieldName: StoredString })

export class CustomFieldsApi extends HttpApiGroup.make("customFields")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/custom-fields")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(CustomFieldObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/orgs/:organizationId/custom-fields")
      .setPath(OrganizationPath)
      .setPayload(CreateCustomFieldInput)
      .addSuccess(CustomFieldObject, Created)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/orgs/:organizationId/custom-fields/:fieldName")
      .setPath(FieldPath)
      .addSuccess(CustomFieldObject)
      .pipe(errors(400, 403, 404))
  )
  .add(HttpApiEndpoint.del("remove", "/v1/orgs/:organizationId/custom-fields/:fieldName").setPath(FieldPath).pipe(errors(400, 403, 404)))
  .add(
    HttpApiEndpoint.patch("update", "/v1/orgs/:organizationId/custom-fields/:fieldName")
      .setPath(FieldPath)
      .setPayload(UpdateCustomFieldInput)
      .addSuccess(CustomFieldObject)
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
