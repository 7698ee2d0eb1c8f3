import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { CollectionId, CreateCollectionInput, MoveInput, OrganizationId, UpdateCollectionInput } from "@octavo/domain"
import { Schema } from "effect"
import { OrganizationPath } from "../organizations/OrganizationsApi.js"
import { BooleanFromString, Created, ListOf, PageQuery } from "../shared/Common.js"
import { errors } from "../shared/Errors.js"
import { Authentication } from "../shared/Security.js"
import { CollectionObject, SpaceObject } from "./Wire.js"

const CollectionPath = Schema.Struct({ collectionId: CollectionId })

export class CollectionsApi extends HttpApiGroup.make("collections")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/collections")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct({ ...PageQuery, nested: Schema.optional(BooleanFromString) }))
      .addSuccess(ListOf(CollectionObject))
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/orgs/:organizationId/collections")
      .setPath(OrganizationPath)
      .setPayload(CreateCollectionInput)
      .addSuccess(CollectionObject, Created)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/collections/:collectionId").setPath(CollectionPath).addSuccess(CollectionObject).pipe(errors(400, 404))
  )
  .add(HttpApiEndpoint.del("remove", "/v1/collections/:collectionId").setPath(CollectionPath).pipe(errors(400, 403, 404)))
  .add(
    HttpApiEndpoint.patch("update", "/v1/collections/:collectionId")
      .setPath(CollectionPath)
      .setPayload(UpdateCollectionInput)
      .addSuccess(CollectionObject)
      .pipe(errors(400, 403, 404))
  )
  .add(
    HttpApiEndpoint.get("spaces", "/v1/collections/:collectionId/spaces")
      .setPath(CollectionPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(SpaceObject))
      .pipe(errors(400, 404))
  )
  .add(
    HttpApiEndpoint.post("move", "/v1/collections/:collectionId/move")
      .setPath(CollectionPath)
      .setPayload(MoveInput)
      .addSuccess(CollectionObject)
      .pipe(errors(400, 403, 404, 409))
  )
  .add(
    HttpApiEndpoint.post("transfer", "/v1/collections/:collectionId/transfer")
      .setPath(CollectionPath)
      .setPayload(Schema.Struct({ organization: OrganizationId }))
      .addSuccess(CollectionObject)
      .pipe(errors(400, 403, 404))
  )
  .middleware(Authentication)
{}
