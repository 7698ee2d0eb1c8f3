import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { ImportInput } from "@octavo/domain"
import { Schema } from "effect"
import { ChangeRequestPath } from "../content/ChangeRequestsApi.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { SpacePath } from "../spaces/SpacesApi.js"

export const ImportResultObject = Schema.Struct({
  revision: Schema.String,
  importedResources: Schema.Number,
  totalResources: Schema.Number
}).annotations({ identifier: "ImportResult" })

export class ImportApi extends HttpApiGroup.make("import")
  .add(
    HttpApiEndpoint.post("space", "/v1/spaces/:spaceId/content/import")
      .setPath(SpacePath)
      .setPayload(ImportInput)
      .addSuccess(ImportResultObject)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.post("changeRequest", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/import")
      .setPath(ChangeRequestPath)
      .setPayload(ImportInput)
      .addSuccess(ImportResultObject)
      .pipe(errors(400, 403, 404, 409))
  )
  .middleware(Authentication)
{}
