import { HttpApiBuilder } from "@effect/platform"
import { CustomFields } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { created, domain, listOf, presentCustomField, PublicUrl } from "../Present.js"

export const CustomFieldsLive = HttpApiBuilder.group(OctavoApi, "customFields", (handlers) =>
  Effect.gen(function*() {
    const fields = yield* CustomFields
    const present = presentCustomField(yield* PublicUrl)
    return handlers
      .handle("list", ({ path, urlParams }) =>
        listOf(`custom-fields:${path.organizationId}`, urlParams, (page) => fields.list(path.organizationId, page), present))
      .handle("create", ({ path, payload }) =>
        domain(fields.create(path.organizationId, payload)).pipe(Effect.flatMap((field) => {
          const body = present(field)
          return created(body.urls.location, body)
        })))
      .handle("get", ({ path }) => domain(fields.get(path.organizationId, path.fieldName)).pipe(Effect.map(present)))
      .handle("remove", ({ path }) => domain(fields.remove(path.organizationId, path.fieldName)))
      .handle("update", ({ path, payload }) => domain(fields.update(path.organizationId, path.fieldName, payload)).pipe(Effect.map(present)))
  }))
