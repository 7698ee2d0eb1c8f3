import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { ImportInput, SpaceId } from "@octavo/domain"
import { Schema } from "effect"
import { Authentication } from "./Security.js"

export const ImportResultObject = Schema.Struct({
  revision: Schema.String,
  importedResources: Schema.Number,
  totalResources: Schema.Number
}).annotations({ identifier: "ImportResult" })

export class ImportApi extends HttpApiGroup.make("import")
  .add(
    HttpApiEndpoint.post("space", "/v1/spaces/:spaceId/content/import")
      .setPath(Schema.Struct({ spaceId: SpaceId }))
      .setPayload(ImportInput)
      .addSuccess(ImportResultObject)
  )
  .add(
    HttpApiEndpoint.post("changeRequest", "/v1/spaces/:spaceId/change-requests/:changeRequestId/content/import")
      .setPath(Schema.Struct({ spaceId: SpaceId, changeRequestId: Schema.String }))
      .setPayload(ImportInput)
      .addSuccess(ImportResultObject)
  )
  .middleware(Authentication)
{}
