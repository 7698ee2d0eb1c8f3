import { Effect, Option } from "effect"
import { requireNotGuest, requireRole } from "../organizations/Policy.js"
import { InvalidInput, NotFound } from "../shared/Errors.js"
import { CustomFieldId, type CustomFieldId as FieldId, type OrganizationId, type SpaceId } from "../shared/Ids.js"
import { unstorableText, validate } from "../shared/Limits.js"
import type { PageRequest } from "../shared/Pagination.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { CustomFieldRepository } from "./Ports.js"
import {
  CreateCustomFieldInput,
  type CustomField,
  type CustomFieldType,
  type CustomFieldValue,
  type CustomFieldValuesPatch,
  CustomFieldName,
  UpdateCustomFieldInput
} from "./Space.js"
import { SpaceAccess } from "./SpaceAccess.js"

const isSelect = (type: CustomFieldType) => type === "select" || type === "multi-select"

/** Select fields need options; the others take none. */
const checkOptions = (type: CustomFieldType, options: ReadonlyArray<string> | undefined) =>
  isSelect(type) && options === undefined
    ? Effect.fail(new InvalidInput({ field: "options", rule: `is required for a ${type} field (1 to 50 entries)` }))
    : !isSelect(type) && options !== undefined
    ? Effect.fail(new InvalidInput({ field: "options", rule: `is only for select and multi-select fields, not ${type}` }))
    : Effect.void

/** Whether a value fits its field: its type, and for select fields, its options. */
const checkValue = (field: CustomField, value: unknown): string | undefined => {
  const options = field.options ?? []
  switch (field.type) {
    case "text":
      return typeof value === "string" && value.length <= 10_000
        ? unstorableText(value)
        : "must be a text of at most 10000 characters"
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "must be a number"
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false"
    case "select":
      return typeof value === "string" && options.includes(value) ? undefined : `must be one of ${options.join(", ")}`
    case "multi-select":
      return Array.isArray(value) && value.every((v) => typeof v === "string" && options.includes(v))
        ? undefined
        : `must be a list of ${options.join(", ")}`
  }
}

export interface CustomFieldValueView {
  readonly customField: CustomField
  readonly value?: CustomFieldValue
}

/** Organization custom fields, and their values on spaces. */
export class CustomFields extends Effect.Service<CustomFields>()("@octavo/domain/CustomFields", {
  effect: Effect.gen(function*() {
    const fields = yield* CustomFieldRepository
    const guard = yield* SpaceAccess
    const secrets = yield* Secrets
    const accessOrganization = guard.organization

    const find = (organizationId: OrganizationId, name: string) =>
      Effect.flatMap(
        fields.findByName(organizationId, name),
        Option.match({
          onNone: () => Effect.fail(new NotFound({ entity: "custom field", id: name })),
          onSome: Effect.succeed
        })
      )

    const list = (organizationId: OrganizationId, page: PageRequest) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        yield* requireNotGuest(member, "list custom fields")
        return yield* fields.list(organizationId, page)
      })

    const create = (organizationId: OrganizationId, input: CreateCustomFieldInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(CreateCustomFieldInput)(input)
        yield* checkOptions(valid.type, valid.options)
        const { member } = yield* accessOrganization(organizationId)
        yield* requireRole(member, "admin", "create custom fields")
        const at = yield* now
        const field: CustomField = { ...valid, id: CustomFieldId.make(yield* secrets.newId), organizationId, createdAt: at, updatedAt: at }
        yield* fields.insert(field)
        return field
      })

    const get = (organizationId: OrganizationId, name: string) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        yield* requireNotGuest(member, "read custom fields")
        yield* validate(CustomFieldName)(name)
        return yield* find(organizationId, name)
      })

    /** The name and type never change: the name is the key of values. */
    const update = (organizationId: OrganizationId, name: string, input: UpdateCustomFieldInput) =>
      Effect.gen(function*() {
        const valid = yield* validate(UpdateCustomFieldInput)(input)
        const { member } = yield* accessOrganization(organizationId)
        yield* requireRole(member, "admin", "change custom fields")
        const field = yield* find(organizationId, name)
        if (valid.options !== undefined) yield* checkOptions(field.type, valid.options)
        const updated: CustomField = {
          ...field,
          ...Object.fromEntries(Object.entries(valid).filter(([, v]) => v !== undefined)),
          updatedAt: yield* now
        }
        yield* fields.update(updated)
        return updated
      })

    const remove = (organizationId: OrganizationId, name: string) =>
      Effect.gen(function*() {
        const { member } = yield* accessOrganization(organizationId)
        yield* requireRole(member, "admin", "delete custom fields")
        const field = yield* find(organizationId, name)
        yield* fields.delete(field.id)
      })

    /** Every field of the space's organization, with the space's value where it has one. */
    const valuesOf = (spaceId: SpaceId) =>
      Effect.gen(function*() {
        const { space } = yield* guard.space(spaceId)
        const all = yield* fields.listAll(space.organizationId)
        const values = yield* fields.valuesOf(space.id)
        return all.map((customField): CustomFieldValueView => {
          const value = values.get(customField.id)
          return value === undefined ? { customField } : { customField, value }
        })
      })

    /**
     * Sets values by field name (`null` clears one); names are Map keys, so `__proto__` is a name like any other.
     * Every entry is checked before anything is written: an unknown name, a wrong type or an option not offered
     * rejects the whole patch.
     */
    const setValues = (spaceId: SpaceId, patch: CustomFieldValuesPatch) =>
      Effect.gen(function*() {
        const { space } = yield* guard.authorize(spaceId, "edit", "set this space's custom fields")
        const byName = new Map((yield* fields.listAll(space.organizationId)).map((f) => [f.name, f]))
        const writes = new Map<FieldId, CustomFieldValue | null>()
        for (const [name, entry] of patch) {
          const field = byName.get(name)
          if (field === undefined)
            return yield* new InvalidInput({ field: `values.${name}`, rule: "is not a custom field of this organization" })
          const value = entry.value ?? null
          if (value !== null) {
            const problem = checkValue(field, value)
            if (problem !== undefined)
              return yield* new InvalidInput({ field: `values.${name}.value`, rule: problem })
          }
          writes.set(field.id, value as CustomFieldValue | null)
        }
        if (writes.size > 0)
          yield* fields.setValues(space.id, writes)
      })

    return { list, create, get, update, remove, valuesOf, setValues } as const
  })
}) {}
