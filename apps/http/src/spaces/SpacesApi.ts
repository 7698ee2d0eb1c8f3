import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import {
  CollectionId,
  CreateSpaceInput,
  CustomFieldValuesPatch,
  MoveInput,
  Order,
  OrganizationId,
  Role,
  ShareKey,
  SpaceId,
  UpdateSpaceInput,
  UserId
} from "@octavo/domain"
import { Schema } from "effect"
import { OrganizationPath } from "../organizations/OrganizationsApi.js"
import { Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { CustomFieldObject, SpaceObject } from "./Wire.js"

export const SpacePath = Schema.Struct({ spaceId: SpaceId })

export class SpacesApi extends HttpApiGroup.make("spaces")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/spaces")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(SpaceObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/orgs/:organizationId/spaces")
      .setPath(OrganizationPath)
      .setPayload(CreateSpaceInput)
      .addSuccess(SpaceObject, Created)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/spaces/:spaceId")
      .setPath(SpacePath)
      // Resolves published URLs of share-link sites once sites exist; validated now.
      .setUrlParams(Schema.Struct({ shareKey: Schema.optional(ShareKey) }))
      .addSuccess(SpaceObject)
      .pipe(errors(400, 404))
  )
  .add(HttpApiEndpoint.del("remove", "/v1/spaces/:spaceId").setPath(SpacePath).pipe(errors(400, 403, 404)))
  .add(
    HttpApiEndpoint.patch("update", "/v1/spaces/:spaceId")
      .setPath(SpacePath)
      .setPayload(UpdateSpaceInput)
      .addSuccess(SpaceObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("duplicate", "/v1/spaces/:spaceId/duplicate").setPath(SpacePath).addSuccess(SpaceObject, Created).pipe(
      errors(400, 403, 404)
    )
  )
  .add(
    HttpApiEndpoint.post("restore", "/v1/spaces/:spaceId/restore").setPath(SpacePath).addSuccess(SpaceObject).pipe(
      errors(400, 403, 404, 409, 412)
    )
  )
  .add(
    HttpApiEndpoint.post("move", "/v1/spaces/:spaceId/move")
      .setPath(SpacePath)
      .setPayload(MoveInput)
      .addSuccess(SpaceObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("transfer", "/v1/spaces/:spaceId/transfer")
      .setPath(SpacePath)
      .setPayload(Schema.Struct({ organization: OrganizationId, collection: Schema.optional(CollectionId) }))
      .addSuccess(SpaceObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("customFields", "/v1/spaces/:spaceId/custom-fields")
      .setPath(SpacePath)
      .addSuccess(Schema.Array(Schema.Struct({ customField: CustomFieldObject, value: Schema.optional(Schema.Unknown) })))
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.patch("setCustomFields", "/v1/spaces/:spaceId/custom-fields")
      .setPath(SpacePath)
      .setPayload(Schema.Struct({ values: CustomFieldValuesPatch }))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("memberSpaces", "/v1/orgs/:organizationId/members/:userId/spaces")
      .setPath(Schema.Struct({ organizationId: OrganizationId, userId: UserId }))
      .setUrlParams(Schema.Struct({ ...PageQuery, order: Schema.optional(Order) }))
      .addSuccess(ListOf(Schema.Struct({ permission: Role, space: SpaceObject })))
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
