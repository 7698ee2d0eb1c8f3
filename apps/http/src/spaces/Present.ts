import type { CollectionView, CustomField, CustomFieldValueView, Role, SpaceView } from "@octavo/domain"
import { Context } from "effect"
import type { CollectionObject, CustomFieldObject, SpaceObject } from "./Wire.js"

export const presentCollection = (base: string) => ({ collection: c, permissions }: CollectionView): typeof CollectionObject.Type => ({
  object: "collection",
  id: c.id,
  title: c.title,
  ...(c.description !== undefined ? { description: c.description } : {}),
  organization: c.organizationId,
  ...(c.parentId !== null ? { parent: c.parentId } : {}),
  defaultLevel: c.defaultLevel,
  urls: { location: `${base}/v1/collections/${c.id}`, app: `${base}/o/${c.organizationId}/c/${c.id}` },
  permissions
})

/** What a later context adds to GitBook's `Space` from what its fact shows of the space (a counter, a URL, `gitSync`). */
export interface SpaceFieldsAdded extends Partial<Omit<typeof SpaceObject.Type, "urls">> {
  readonly urls?: Partial<(typeof SpaceObject.Type)["urls"]>
}

/** A later context's fields on spaces, from a view of one (`view.facts`), with absolute URLs from `base`. */
export type SpaceFields = (base: string, view: SpaceView) => SpaceFieldsAdded

/** The fields later contexts add to spaces on the wire, each from its own folder; the composition root lists them. */
export class SpaceWireFields extends Context.Tag("@octavo/http/SpaceWireFields")<SpaceWireFields, ReadonlyArray<SpaceFields>>() {}

/** GitBook's `Space` of a view, with what `fields` (later contexts) add; nothing counted is 0. */
export const presentSpace = (base: string, fields: ReadonlyArray<SpaceFields>) => (view: SpaceView): typeof SpaceObject.Type => {
  const { permissions, space: s } = view
  const added = fields.map((field) => field(base, view))
  return {
    object: "space",
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(s.deletedAt !== undefined ? { deletedAt: s.deletedAt } : {}),
    editMode: s.editMode,
    mergeRules: { type: "inherit" },
    organization: s.organizationId,
    ...(s.parentId !== null ? { parent: s.parentId } : {}),
    revision: s.revisionId,
    defaultLevel: s.defaultLevel,
    ...(s.language !== undefined ? { language: s.language } : {}),
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    ...Object.assign({}, ...added),
    urls: Object.assign({
      location: `${base}/v1/spaces/${s.id}`,
      app: `${base}/o/${s.organizationId}/s/${s.id}`,
      ...(s.icon !== undefined ? { icon: s.icon } : {})
    }, ...added.map((a) => a.urls)),
    permissions
  }
}

/** A space with a member's permission in it. */
export const presentMemberSpace = (base: string, fields: ReadonlyArray<SpaceFields>) => {
  const space = presentSpace(base, fields)
  return (row: { readonly permission: Role; readonly space: SpaceView }) => ({
    permission: row.permission,
    space: space(row.space)
  })
}
export const presentCustomField = (base: string) => (f: CustomField): typeof CustomFieldObject.Type => ({
  object: "custom-field",
  id: f.id,
  name: f.name,
  type: f.type,
  ...(f.title !== undefined ? { title: f.title } : {}),
  ...(f.description !== undefined ? { description: f.description } : {}),
  ...(f.placeholder !== undefined ? { placeholder: f.placeholder } : {}),
  ...(f.options !== undefined ? { options: f.options } : {}),
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
  urls: { location: `${base}/v1/orgs/${f.organizationId}/custom-fields/${f.name}` }
})

/** A space's custom field with its value there, if it has one. */
export const presentCustomFieldValue = (base: string) => {
  const field = presentCustomField(base)
  return (v: CustomFieldValueView) => ({ customField: field(v.customField), ...(v.value !== undefined ? { value: v.value } : {}) })
}
