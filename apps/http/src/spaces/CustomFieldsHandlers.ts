import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { customFieldListKey, CustomFields } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { CustomFieldsApi } from "./CustomFieldsApi.js"
import { presentCustomField } from "./Present.js"

export const CustomFieldsLive = HttpApiBuilder.group(OctavoBase.add(CustomFieldsApi), "customFields", (handlers) =>
  Effect.gen(function*() {
    const fields = yield* CustomFields
    const present = presentCustomField(yield* PublicUrl)
    return handlers
      .handle("list", ({ path, urlParams }) =>
        listOf(customFieldListKey(path.organizationId), urlParams, (page) =>
          fields.list(path.organizationId, page), present))
      .handle("create", ({ path, payload }) =>
        domain(fields.create(path.organizationId, payload)).pipe(Effect.flatMap(createdAs(present))))
      .handle("get", ({ path }) => domain(fields.get(path.organizationId, path.fieldName)).pipe(Effect.map(present)))
      .handle("remove", ({ path }) => domain(fields.remove(path.organizationId, path.fieldName)))
      .handle(
        "update",
        ({ path, payload }) => domain(fields.update(path.organizationId, path.fieldName, payload)).pipe(Effect.map(present))
      )
  }))
