import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { CreateSpecInput, PutSpecInput, StoredString } from "@octavo/domain"
import { Schema } from "effect"
import { OrganizationPath } from "../organizations/OrganizationsApi.js"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { OpenAPISpecObject, OpenAPISpecRawContentObject, OpenAPISpecVersionObject } from "./Wire.js"

// OpenAPI specs (conventions-2.md §5): GitBook's paths under the organization, with 201 and
// `Location` on creation, a PUT that creates included; and the versions (decision 12).

export const SpecPath = Schema.Struct({ ...OrganizationPath.fields, specSlug: StoredString })
const VersionPath = Schema.Struct({ ...SpecPath.fields, versionId: StoredString })

const specs = "/v1/orgs/:organizationId/openapi"
const spec = `${specs}/:specSlug`

export class OpenAPIApi extends HttpApiGroup.make("openapi")
  .add(
    HttpApiEndpoint.get("list", specs)
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(OpenAPISpecObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("create", specs)
      .setPath(OrganizationPath)
      .setPayload(CreateSpecInput)
      .addSuccess(OpenAPISpecObject, Created)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(HttpApiEndpoint.get("get", spec).setPath(SpecPath).addSuccess(OpenAPISpecObject).pipe(errors(400, 403, 404)))
  .add(
    // 200 when the spec existed, 201 with `Location` when this PUT created it.
    HttpApiEndpoint.put("put", spec)
      .setPath(SpecPath)
      .setPayload(PutSpecInput)
      .addSuccess(OpenAPISpecObject)
      .addSuccess(OpenAPISpecObject, Created)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(HttpApiEndpoint.del("remove", spec).setPath(SpecPath).pipe(errors(400, 403, 404)))
  .add(
    HttpApiEndpoint.get("listVersions", `${spec}/versions`)
      .setPath(SpecPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(OpenAPISpecVersionObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("latestVersion", `${spec}/versions/latest`)
      .setPath(SpecPath)
      .addSuccess(OpenAPISpecVersionObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("latestContent", `${spec}/versions/latest/content/raw`)
      .setPath(SpecPath)
      .addSuccess(OpenAPISpecRawContentObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("version", `${spec}/versions/:versionId`)
      .setPath(VersionPath)
      .addSuccess(OpenAPISpecVersionObject)
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
