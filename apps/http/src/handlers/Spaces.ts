import { HttpApiBuilder } from "@effect/platform"
import { CustomFields, Spaces } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoApi } from "../Api.js"
import { created, domain, listOf, presentCustomField, presentSpace, PublicUrl } from "../Present.js"

export const SpacesLive = HttpApiBuilder.group(OctavoApi, "spaces", (handlers) =>
  Effect.gen(function*() {
    const content = yield* Spaces
    const fields = yield* CustomFields
    const base = yield* PublicUrl
    const present = presentSpace(base)
    const field = presentCustomField(base)
    const createdSpace = (view: Parameters<typeof present>[0]) => {
      const body = present(view)
      return created(body.urls.location, body)
    }
    return handlers
      .handle("list", ({ path, urlParams }) =>
        listOf(`spaces:${path.organizationId}`, urlParams, (page) => content.listSpaces(path.organizationId, page), present))
      .handle("create", ({ path, payload }) => domain(content.createSpace(path.organizationId, payload)).pipe(Effect.flatMap(createdSpace)))
      .handle("get", ({ path }) => domain(content.getSpace(path.spaceId)).pipe(Effect.map(present)))
      .handle("remove", ({ path }) => domain(content.deleteSpace(path.spaceId)))
      .handle("update", ({ path, payload }) => domain(content.updateSpace(path.spaceId, payload)).pipe(Effect.map(present)))
      .handle("duplicate", ({ path }) => domain(content.duplicateSpace(path.spaceId)).pipe(Effect.flatMap(createdSpace)))
      .handle("restore", ({ path }) => domain(content.restoreSpace(path.spaceId)).pipe(Effect.map(present)))
      .handle("move", ({ path, payload }) => domain(content.moveSpace(path.spaceId, payload)).pipe(Effect.map(present)))
      .handle("transfer", ({ path, payload }) => domain(content.transferSpace(path.spaceId, payload)).pipe(Effect.map(present)))
      .handle("customFields", ({ path }) =>
        domain(fields.valuesOf(path.spaceId)).pipe(Effect.map((values) =>
          values.map((v) => ({ customField: field(v.customField), ...(v.value !== undefined ? { value: v.value } : {}) }))
        )))
      .handle("setCustomFields", ({ path, payload }) => domain(fields.setValues(path.spaceId, payload.values)))
      .handle("memberSpaces", ({ path, urlParams }) => {
        const order = urlParams.order ?? "desc"
        return listOf(
          `member-spaces:${path.organizationId}:${path.userId}:${order}`,
          urlParams,
          (page) => content.memberSpaces(path.organizationId, path.userId, order, page),
          (row) => ({ permission: row.permission, space: present(row.space) })
        )
      })
  }))
