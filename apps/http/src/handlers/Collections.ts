import { HttpApiBuilder } from "@effect/platform"
import { Spaces } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { created, domain, listOf, presentCollection, presentSpace, PublicUrl } from "../Present.js"

export const CollectionsLive = HttpApiBuilder.group(OctavoApi, "collections", (handlers) =>
  Effect.gen(function*() {
    const content = yield* Spaces
    const base = yield* PublicUrl
    const present = presentCollection(base)
    return handlers
      .handle("list", ({ path, urlParams }) => {
        const nested = urlParams.nested ?? true
        return listOf(
          nested ? `collections:${path.organizationId}` : `collections-top:${path.organizationId}@key`,
          urlParams,
          (page) => content.listCollections(path.organizationId, nested, page),
          present
        )
      })
      .handle("create", ({ path, payload }) =>
        domain(content.createCollection(path.organizationId, payload)).pipe(Effect.flatMap((view) => {
          const body = present(view)
          return created(body.urls.location, body)
        })))
      .handle("get", ({ path }) => domain(content.getCollection(path.collectionId)).pipe(Effect.map(present)))
      .handle("remove", ({ path }) => domain(content.deleteCollection(path.collectionId)))
      .handle("update", ({ path, payload }) => domain(content.updateCollection(path.collectionId, payload)).pipe(Effect.map(present)))
      .handle("spaces", ({ path, urlParams }) =>
        listOf(`collection-spaces:${path.collectionId}@key`, urlParams, (page) => content.listCollectionSpaces(path.collectionId, page), presentSpace(base)))
      .handle("move", ({ path, payload }) => domain(content.moveCollection(path.collectionId, payload)).pipe(Effect.map(present)))
      .handle("transfer", ({ path, payload }) =>
        domain(content.transferCollection(path.collectionId, payload.organization)).pipe(Effect.map(present)))
  }))
