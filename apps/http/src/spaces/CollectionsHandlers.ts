import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { collectionListKey, CollectionPlacement, Collections, collectionSpacesListKey } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { CollectionsApi } from "./CollectionsApi.js"
import { presentCollection, presentSpace, SpaceWireFields } from "./Present.js"

export const CollectionsLive = HttpApiBuilder.group(OctavoBase.add(CollectionsApi), "collections", (handlers) =>
  Effect.gen(function*() {
    const collections = yield* Collections
    const placement = yield* CollectionPlacement
    const base = yield* PublicUrl
    const present = presentCollection(base)
    const space = presentSpace(base, yield* SpaceWireFields)
    return handlers
      .handle("list", ({ path, urlParams }) => {
        const nested = urlParams.nested ?? true
        return listOf(collectionListKey(path.organizationId, nested), urlParams, (page) =>
          collections.list(path.organizationId, nested, page), present)
      })
      .handle("create", ({ path, payload }) =>
        domain(collections.create(path.organizationId, payload)).pipe(Effect.flatMap(createdAs(present))))
      .handle("get", ({ path }) =>
        domain(collections.get(path.collectionId)).pipe(Effect.map(present)))
      .handle("remove", ({ path }) =>
        domain(collections.delete(path.collectionId)))
      .handle("update", ({ path, payload }) =>
        domain(collections.update(path.collectionId, payload)).pipe(Effect.map(present)))
      .handle("spaces", ({ path, urlParams }) =>
        listOf(collectionSpacesListKey(path.collectionId), urlParams, (page) =>
          collections.listSpaces(path.collectionId, page), space))
      .handle("move", ({ path, payload }) =>
        domain(placement.move(path.collectionId, payload)).pipe(Effect.map(present)))
      .handle("transfer", ({ path, payload }) =>
        domain(placement.transfer(path.collectionId, payload.organization)).pipe(Effect.map(present)))
  }))
