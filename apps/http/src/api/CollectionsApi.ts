import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { CollectionId, CreateCollectionInput, MoveInput, OrganizationId, UpdateCollectionInput } from "@octavo/domain"
import { Schema } from "effect"
import { BooleanFromString, Created, ListOf, PageQuery } from "./Common.js"
import { Authentication } from "./Security.js"
import { CollectionObject, SpaceObject } from "./Wire.js"

const OrganizationPath = Schema.Struct({ organizationId: OrganizationId })
const CollectionPath = Schema.Struct({ collectionId: CollectionId })

export class CollectionsApi extends HttpApiGroup.make("collections")
  .add(
    HttpApiEndpoint.get("list", "/v1/orgs/:organizationId/collections")
      .setPath(OrganizationPath)
      .setUrlParams(Schema.Struct({ ...PageQuery, nested: Schema.optional(BooleanFromString) }))
      .addSuccess(ListOf(CollectionObject))
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/orgs/:organizationId/collections")
      .setPath(OrganizationPath)
      .setPayload(CreateCollectionInput)
      .addSuccess(CollectionObject, Created)
  )
  .add(HttpApiEndpoint.get("get", "/v1/collections/:collectionId").setPath(CollectionPath).addSuccess(CollectionObject))
  .add(HttpApiEndpoint.del("remove", "/v1/collections/:collectionId").setPath(CollectionPath))
  .add(
    HttpApiEndpoint.patch("update", "/v1/collections/:collectionId")
      .setPath(CollectionPath)
      .setPayload(UpdateCollectionInput)
      .addSuccess(CollectionObject)
  )
  .add(
    HttpApiEndpoint.get("spaces", "/v1/collections/:collectionId/spaces")
      .setPath(CollectionPath)
      .setUrlParams(Schema.Struct(PageQuery))
      .addSuccess(ListOf(SpaceObject))
  )
  .add(HttpApiEndpoint.post("move", "/v1/collections/:collectionId/move").setPath(CollectionPath).setPayload(MoveInput).addSuccess(CollectionObject))
  .add(
    HttpApiEndpoint.post("transfer", "/v1/collections/:collectionId/transfer")
      .setPath(CollectionPath)
      .setPayload(Schema.Struct({ organization: OrganizationId }))
      .addSuccess(CollectionObject)
  )
  .middleware(Authentication)
{}
