import { Effect, ParseResult, Schema } from "effect"
import { CollectionId, CustomFieldId, OrganizationId, RevisionId, SpaceId, UserId } from "../shared/Ids.js"
import { TranslationLanguage } from "../shared/Languages.js"
import { boundedArray, boundedString, HttpUrl, patternString, StoredString } from "../shared/Limits.js"
import { Role } from "../shared/Role.js"

// Collections, spaces, custom fields: limits from the specification's "Limits" table.
export const CollectionTitle = boundedString({ max: 50 })
export const CollectionDescription = boundedString({ max: 100 })
export const SpaceTitle = boundedString({ max: 50 })
export const SpaceEmoji = boundedString({ max: 50 })

export const Visibility = Schema.Literal("public", "unlisted", "share-link", "visitor-auth", "in-collection", "private")
export type Visibility = typeof Visibility.Type
export const EditMode = Schema.Literal("live", "locked")
export type EditMode = typeof EditMode.Type

/**
 * The level every member gets on an item by default (GitBook's `DefaultLevel`): a role, added to
 * those of the collections above (README, "Content permissions"); `"inherit"`: the collections
 * above only; `null`: none, so members keep their organization role and nothing above applies.
 */
export const DefaultLevel = Schema.NullOr(Schema.Union(Role, Schema.Literal("inherit")))
export type DefaultLevel = typeof DefaultLevel.Type

/** Where a collection or space sits: in a collection, or at the top of its organization. */
export const ParentId = Schema.NullOr(CollectionId)

export const Collection = Schema.Struct({
  id: CollectionId,
  organizationId: OrganizationId,
  title: CollectionTitle,
  description: Schema.optional(CollectionDescription),
  parentId: ParentId,
  /** Order among the siblings (collections and spaces) of the same parent. */
  position: Schema.String,
  defaultLevel: DefaultLevel,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type Collection = typeof Collection.Type

export const Space = Schema.Struct({
  id: SpaceId,
  organizationId: OrganizationId,
  parentId: ParentId,
  position: Schema.String,
  title: SpaceTitle,
  /** Empty when the space has none. */
  emoji: SpaceEmoji,
  /** An image URL shown instead of an emoji; a space has one or the other. */
  icon: Schema.optional(HttpUrl),
  visibility: Visibility,
  editMode: EditMode,
  defaultLevel: DefaultLevel,
  /** The language its content is written in (GitBook's `language`); absent until set. */
  language: Schema.optional(TranslationLanguage),
  /** The active revision. */
  revisionId: RevisionId,
  createdBy: UserId,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  /** Set while soft-deleted (Space lifecycle). */
  deletedAt: Schema.optional(Schema.DateFromSelf)
})
export type Space = typeof Space.Type

export const RevisionType = Schema.Literal("edits", "merge", "update")

/** A revision of a space's content; the content itself arrives with the content slice. */
export const Revision = Schema.Struct({
  id: RevisionId,
  spaceId: SpaceId,
  parents: Schema.Array(RevisionId),
  type: RevisionType,
  createdAt: Schema.DateFromSelf
})
export type Revision = typeof Revision.Type

// Custom fields.
export const CustomFieldName = boundedString({ min: 1, max: 50 }).pipe(
  Schema.compose(patternString(/^[a-z_\-0-9]+$/, "lower-case letters, digits, _ and -"))
)
export const CustomFieldType = Schema.Literal("text", "number", "boolean", "select", "multi-select")
export type CustomFieldType = typeof CustomFieldType.Type
export const CustomFieldOptions = boundedArray(boundedString({ min: 1, max: 100 }), { min: 1, max: 50 })

export const CustomField = Schema.Struct({
  id: CustomFieldId,
  organizationId: OrganizationId,
  name: Schema.String,
  type: CustomFieldType,
  title: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  placeholder: Schema.optional(Schema.String),
  options: Schema.optional(Schema.Array(Schema.String)),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type CustomField = typeof CustomField.Type

/** A custom field's value on a space: a string, a number, a boolean or a list of options. */
export const CustomFieldValue = Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Array(Schema.String))
export type CustomFieldValue = typeof CustomFieldValue.Type

const CustomFieldValueEntry = Schema.Struct({ value: Schema.optional(Schema.Unknown) })

/**
 * Values to set by field name (`{value: null}` clears one), read into a Map by the object's own keys:
 * Schema.Record builds a plain object, where a field named `__proto__` sets the prototype and its value is lost.
 */
export const CustomFieldValuesPatch = Schema.transformOrFail(
  Schema.Object.annotations({
    jsonSchema: { type: "object", additionalProperties: { type: "object", properties: { value: {} } } }
  }),
  Schema.ReadonlyMapFromSelf({ key: StoredString, value: Schema.typeSchema(CustomFieldValueEntry) }),
  {
    strict: true,
    decode: (object, _, ast) =>
      Array.isArray(object)
        ? ParseResult.fail(new ParseResult.Type(ast, object, "must be an object of values by field name"))
        : Effect.map(
          ParseResult.decodeUnknown(Schema.Array(Schema.Tuple(StoredString, CustomFieldValueEntry)))(Object.entries(object)),
          (entries) => new Map(entries)
        ),
    encode: (values) => ParseResult.succeed(Object.fromEntries(values))
  }
)
export type CustomFieldValuesPatch = typeof CustomFieldValuesPatch.Type

/** A share key as reads take it (`?shareKey=`): whether it opens anything is decided later, silently. */
export const ShareKey = patternString(/^[A-Za-z0-9_-]{1,128}$/, "a share key")

// Inputs of the use cases.
export const CreateCollectionInput = Schema.Struct({
  title: Schema.optional(CollectionTitle),
  parent: Schema.optional(CollectionId)
})
export type CreateCollectionInput = typeof CreateCollectionInput.Type

export const UpdateCollectionInput = Schema.Struct({
  title: Schema.optional(CollectionTitle),
  description: Schema.optional(CollectionDescription),
  defaultLevel: Schema.optional(DefaultLevel)
})
export type UpdateCollectionInput = typeof UpdateCollectionInput.Type

export const CreateSpaceInput = Schema.Struct({
  title: Schema.optional(SpaceTitle),
  emoji: Schema.optional(SpaceEmoji),
  parent: Schema.optional(CollectionId),
  editMode: Schema.optional(EditMode)
})
export type CreateSpaceInput = typeof CreateSpaceInput.Type

/** `emoji` or `icon` replaces the other; null removes it (GitBook's "Remove icon or emoji"). */
export const UpdateSpaceInput = Schema.Struct({
  title: Schema.optional(SpaceTitle),
  emoji: Schema.optional(Schema.NullOr(SpaceEmoji)),
  icon: Schema.optional(Schema.NullOr(HttpUrl)),
  editMode: Schema.optional(EditMode),
  defaultLevel: Schema.optional(DefaultLevel),
  language: Schema.optional(TranslationLanguage)
}).pipe(
  Schema.filter((input) =>
    typeof input.emoji === "string" && typeof input.icon === "string"
      ? { path: ["icon"], message: "give either an emoji or an icon, not both" }
      : true
  )
)
export type UpdateSpaceInput = typeof UpdateSpaceInput.Type

/**
 * A sibling named by a Position, in GitBook's two forms: `{type: "space", space: <id>}` and
 * `{type: "collection", collection: <id>}`. Either names a space or a collection among the siblings.
 */
export const SiblingRef = Schema.Union(
  Schema.Struct({ type: Schema.Literal("space"), space: StoredString }),
  Schema.Struct({ type: Schema.Literal("collection"), collection: StoredString })
)
export type SiblingRef = typeof SiblingRef.Type

/** The id a sibling reference names, and the field that holds it. */
export const siblingOf = (ref: SiblingRef): { readonly id: string; readonly field: "space" | "collection" } =>
  ref.type === "space" ? { id: ref.space, field: "space" } : { id: ref.collection, field: "collection" }
export const Position = Schema.Struct({
  before: Schema.optional(SiblingRef),
  after: Schema.optional(SiblingRef)
})
export type Position = typeof Position.Type

export const MoveInput = Schema.Struct({
  /** A collection id, null for the top of the organization; absent keeps the parent. */
  parent: Schema.optional(Schema.NullOr(CollectionId)),
  position: Schema.optional(Position)
})
export type MoveInput = typeof MoveInput.Type

/** What may change on a custom field: everything but its name and type. */
export const UpdateCustomFieldInput = Schema.Struct({
  title: Schema.optional(boundedString({ max: 100 })),
  description: Schema.optional(boundedString({ max: 200 })),
  placeholder: Schema.optional(boundedString({ max: 100 })),
  options: Schema.optional(CustomFieldOptions)
})
export type UpdateCustomFieldInput = typeof UpdateCustomFieldInput.Type

export const CreateCustomFieldInput = Schema.Struct({
  name: CustomFieldName,
  type: CustomFieldType,
  ...UpdateCustomFieldInput.fields
})
export type CreateCustomFieldInput = typeof CreateCustomFieldInput.Type
