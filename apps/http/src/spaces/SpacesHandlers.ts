import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { CustomFields, memberSpacesListKey, SpaceLifecycle, spaceListKey, SpacePlacement, Spaces } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { presentCustomFieldValue, presentMemberSpace, presentSpace, SpaceWireFields } from "./Present.js"
import { SpacesApi } from "./SpacesApi.js"

export const SpacesLive = HttpApiBuilder.group(OctavoBase.add(SpacesApi), "spaces", (handlers) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    const lifecycle = yield* SpaceLifecycle
    const placement = yield* SpacePlacement
    const fields = yield* CustomFields
    const base = yield* PublicUrl
    const added = yield* SpaceWireFields
    const present = presentSpace(base, added)
    const value = presentCustomFieldValue(base)
    return handlers
      .handle("list", ({ path, urlParams }) =>
        listOf(spaceListKey(path.organizationId), urlParams, (page) =>
          spaces.list(path.organizationId, page), present))
      .handle("create", ({ path, payload }) =>
        domain(spaces.create(path.organizationId, payload)).pipe(Effect.flatMap(createdAs(present))))
      .handle("get", ({ path, urlParams }) => domain(spaces.get(path.spaceId, urlParams.shareKey)).pipe(Effect.map(present)))
      .handle("remove", ({ path }) => domain(lifecycle.delete(path.spaceId)))
      .handle("update", ({ path, payload }) => domain(spaces.update(path.spaceId, payload)).pipe(Effect.map(present)))
      .handle("duplicate", ({ path }) => domain(lifecycle.duplicate(path.spaceId)).pipe(Effect.flatMap(createdAs(present))))
      .handle("restore", ({ path }) => domain(lifecycle.restore(path.spaceId)).pipe(Effect.map(present)))
      .handle("move", ({ path, payload }) => domain(placement.move(path.spaceId, payload)).pipe(Effect.map(present)))
      .handle("transfer", ({ path, payload }) => domain(placement.transfer(path.spaceId, payload)).pipe(Effect.map(present)))
      .handle("customFields", ({ path }) => domain(fields.valuesOf(path.spaceId)).pipe(Effect.map((values) => values.map(value))))
      .handle("setCustomFields", ({ path, payload }) => domain(fields.setValues(path.spaceId, payload.values)))
      .handle("memberSpaces", ({ path, urlParams }) => {
        const order = urlParams.order ?? "desc"
        return listOf(
          memberSpacesListKey(path.organizationId, path.userId, order),
          urlParams,
          (page) => spaces.memberSpaces(path.organizationId, path.userId, order, page),
          presentMemberSpace(base, added)
        )
      })
  }))
