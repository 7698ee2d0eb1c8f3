import { Schema } from "effect"
import {
  OrganizationId,
  ShareLinkId,
  SiteId,
  SiteSectionGroupId,
  SiteSectionId,
  SiteSpaceId,
  SpaceId
} from "../shared/Ids.js"
import { LocalizedDescription, LocalizedTitle } from "../shared/Languages.js"
import { boundedArray, boundedString, patternString, StoredJson, StoredString } from "../shared/Limits.js"
import { CollectionId } from "../shared/Ids.js"
import { SpaceEmoji, SpaceTitle } from "../spaces/Space.js"
import { adaptiveSchemaJsonSchema } from "./AdaptiveSchema.js"
import { conditionProblem } from "./Condition.js"

// Sites: limits from api.md's "Limits" table and conventions-2.md §1.
export const SiteType = Schema.Literal("basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium")
export type SiteType = typeof SiteType.Type
export const SiteVisibility = Schema.Literal("public", "unlisted", "share-link", "visitor-auth")
export type SiteVisibility = typeof SiteVisibility.Type

/** 2-128 characters once trimmed; the use cases store it trimmed. */
export const SiteTitle = StoredString.pipe(
  Schema.filter((s) => {
    const n = s.trim().length
    return n < 2 ? `must be at least 2 characters once trimmed, got ${n}` : n > 128 ? `must be at most 128 characters, got ${n}` : true
  }, { jsonSchema: { minLength: 2, maxLength: 128 } })
)

export const SiteBasename = boundedString({ min: 1, max: 100 }).pipe(
  Schema.compose(patternString(/^[A-Za-z0-9._-]+$/, "letters, digits, ., _ and -"))
)

/** A host plus at least one path segment, no scheme (GitBook's SiteProxyOrigin). */
export const SiteProxy = boundedString({ min: 1, max: 512 }).pipe(
  Schema.compose(patternString(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, "a host and a path, such as example.com/docs"))
)

/** A site space's path: `[A-Za-z0-9._-]` segments joined by `/`, none of them `.` or `..`. */
export const SiteSpacePath = boundedString({ min: 1, max: 100 }).pipe(
  Schema.filter((s) =>
    s.split("/").every((segment) => /^[A-Za-z0-9._-]+$/.test(segment) && segment !== "." && segment !== "..") ||
    "must be segments of letters, digits, ., _ and - joined by /, none empty, . or .."
  )
)

/** A section's path: one segment. */
export const SiteSectionPath = boundedString({ min: 1, max: 100 }).pipe(
  Schema.compose(patternString(/^[A-Za-z0-9._-]+$/, "letters, digits, ., _ and -")),
  Schema.filter((s) => (s !== "." && s !== "..") || "must not be . or ..")
)

/** A condition on visitor claims (§1.4), syntax-checked. */
export const SiteCondition = boundedString({ min: 1, max: 1024 }).pipe(
  Schema.filter((s) => {
    const problem = conditionProblem(s)
    return problem === undefined ? true : `is not a valid condition: ${problem}`
  })
)

export const SiteSectionTitle = boundedString({ min: 2, max: 128 })
export const SiteSectionIcon = boundedString({ max: 50 }).pipe(
  Schema.compose(patternString(/^[a-z0-9-]*$/, "lower-case letters, digits and -"))
)
export const SiteSectionDescription = boundedString({ max: 256 })
export const SiteSectionGroupTitle = boundedString({ min: 1, max: 100 })
export const SiteSectionGroupIcon = boundedString({ max: 50 })
export const ShareLinkName = boundedString({ max: 50 })
/** Where a visitor goes to sign in, or after signing out. */
export const PublishingAuthUrl = boundedString({ min: 1, max: 2048 }).pipe(
  Schema.compose(patternString(/^https?:\/\/\S+$/, "an http or https URL"))
)

export const PublishingAuth = Schema.Struct({
  /** The visitor-token secret: 32 random bytes, base64url. */
  privateKey: Schema.String,
  fallbackURL: Schema.NullOr(Schema.String),
  logoutURL: Schema.NullOr(Schema.String)
})
export type PublishingAuth = typeof PublishingAuth.Type

export const Site = Schema.Struct({
  id: SiteId,
  organizationId: OrganizationId,
  type: SiteType,
  title: Schema.String,
  visibility: SiteVisibility,
  published: Schema.Boolean,
  basename: Schema.NullOr(Schema.String),
  /** Lower-cased. */
  proxy: Schema.NullOr(Schema.String),
  adaptiveContent: Schema.Boolean,
  /** The default of the root's site spaces; null with sections, or with none. */
  defaultSiteSpaceId: Schema.NullOr(SiteSpaceId),
  /** The default section; null when the site has none. */
  defaultSectionId: Schema.NullOr(SiteSectionId),
  publishingAuth: PublishingAuth,
  /** The adaptive schema once PUT; null before. */
  adaptiveSchema: Schema.NullOr(Schema.Struct({ jsonSchema: Schema.Unknown, updatedAt: Schema.DateFromSelf })),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type Site = typeof Site.Type

export const SiteSection = Schema.Struct({
  id: SiteSectionId,
  siteId: SiteId,
  title: Schema.String,
  /** The title in other languages than the default (GitBook's localizedTitle); `{}` for none. */
  localizedTitle: LocalizedTitle,
  description: Schema.NullOr(Schema.String),
  localizedDescription: LocalizedDescription,
  icon: Schema.NullOr(Schema.String),
  path: Schema.String,
  condition: Schema.NullOr(Schema.String),
  /** The group it is in; null at the root. */
  groupId: Schema.NullOr(SiteSectionGroupId),
  /** Order among the root's items (sections and groups), or among its group's sections. */
  position: Schema.String,
  /** Its default site space; null only when its site spaces were purged with their spaces. */
  defaultSiteSpaceId: Schema.NullOr(SiteSpaceId),
  createdAt: Schema.DateFromSelf
})
export type SiteSection = typeof SiteSection.Type

export const SiteSectionGroup = Schema.Struct({
  id: SiteSectionGroupId,
  siteId: SiteId,
  title: Schema.String,
  localizedTitle: LocalizedTitle,
  icon: Schema.NullOr(Schema.String),
  /** Order among the root's items. */
  position: Schema.String,
  createdAt: Schema.DateFromSelf
})
export type SiteSectionGroup = typeof SiteSectionGroup.Type

export const SiteSpace = Schema.Struct({
  id: SiteSpaceId,
  siteId: SiteId,
  /** The section it is in; null at the site's root. */
  sectionId: Schema.NullOr(SiteSectionId),
  spaceId: SpaceId,
  path: Schema.String,
  condition: Schema.NullOr(Schema.String),
  /** Left out of the site's navigation, still open at its path (GitBook's `hidden`). */
  hidden: Schema.Boolean,
  /** Its title (the space's) in other languages. */
  localizedTitle: LocalizedTitle,
  /** Order within its scope (the root, or its section). */
  position: Schema.String,
  createdAt: Schema.DateFromSelf
})
export type SiteSpace = typeof SiteSpace.Type

export const ShareLink = Schema.Struct({
  id: ShareLinkId,
  siteId: SiteId,
  name: Schema.String,
  /** 32 characters of [A-Za-z0-9]; shown only inside the link's published URL. */
  key: Schema.String,
  active: Schema.Boolean,
  createdAt: Schema.DateFromSelf
})
export type ShareLink = typeof ShareLink.Type

/** Everything under a site but its share links: what structural changes read and write together. */
export interface SiteTree {
  readonly site: Site
  readonly sections: ReadonlyArray<SiteSection>
  readonly groups: ReadonlyArray<SiteSectionGroup>
  readonly siteSpaces: ReadonlyArray<SiteSpace>
}

// Inputs of the use cases.

/** The object form of `spaces` on create: a new space for the site. */
export const NewSiteSpaceInput = Schema.Struct({
  title: Schema.optional(SpaceTitle),
  emoji: Schema.optional(SpaceEmoji),
  parent: Schema.optional(CollectionId)
})

export const CreateSiteInput = Schema.Struct({
  type: Schema.optional(SiteType),
  title: Schema.optional(SiteTitle),
  visibility: Schema.optional(SiteVisibility),
  spaces: Schema.optional(Schema.Union(
    boundedArray(SpaceId, { max: 100 }).pipe(
      Schema.filter((ids) => new Set(ids).size === ids.length || "must not name a space twice")
    ),
    NewSiteSpaceInput
  ))
})
export type CreateSiteInput = typeof CreateSiteInput.Type

export const UpdateSiteInput = Schema.Struct({
  title: Schema.optional(SiteTitle),
  visibility: Schema.optional(SiteVisibility),
  basename: Schema.optional(Schema.NullOr(SiteBasename)),
  adaptiveContent: Schema.optional(Schema.Struct({ enabled: Schema.Boolean })),
  defaultSiteSpace: Schema.optional(SiteSpaceId),
  defaultSiteSection: Schema.optional(SiteSectionId),
  proxy: Schema.optional(Schema.NullOr(SiteProxy))
})
export type UpdateSiteInput = typeof UpdateSiteInput.Type

export const SiteListFilter = Schema.Struct({
  space: Schema.optional(SpaceId),
  title: Schema.optional(boundedString({ max: 128 })),
  published: Schema.optional(Schema.Boolean),
  types: Schema.optional(Schema.Array(SiteType))
})
export type SiteListFilter = typeof SiteListFilter.Type

export const AddSiteSpaceInput = Schema.Struct({
  spaceId: SpaceId,
  sectionId: Schema.optional(SiteSectionId)
})
export type AddSiteSpaceInput = typeof AddSiteSpaceInput.Type

export const UpdateSiteSpaceInput = Schema.Struct({
  path: Schema.optional(SiteSpacePath),
  hidden: Schema.optional(Schema.Boolean),
  /** The whole map: `{}` removes every localized title. */
  localizedTitle: Schema.optional(LocalizedTitle),
  /** null removes it; absent leaves it. */
  condition: Schema.optional(Schema.NullOr(SiteCondition))
})
export type UpdateSiteSpaceInput = typeof UpdateSiteSpaceInput.Type

/** A site space's neighbour in its scope. */
export const SiteSpaceRef = Schema.Struct({ type: Schema.Literal("site-space"), siteSpace: StoredString })
/** An item of the root (or of a group): a section (api.md's `id`, or GitBook's `siteSection`) or a group. */
export const SiteSectionRef = Schema.Union(
  Schema.Struct({ type: Schema.Literal("site-section"), id: StoredString }),
  Schema.Struct({ type: Schema.Literal("site-section"), siteSection: StoredString }),
  Schema.Struct({ type: Schema.Literal("site-section-group"), id: StoredString })
)

export const SiteSpacePosition = Schema.Struct({ before: Schema.optional(SiteSpaceRef), after: Schema.optional(SiteSpaceRef) })
export type SiteSpacePosition = typeof SiteSpacePosition.Type
export const SiteSectionPosition = Schema.Struct({ before: Schema.optional(SiteSectionRef), after: Schema.optional(SiteSectionRef) })
export type SiteSectionPosition = typeof SiteSectionPosition.Type

export const AddSectionInput = Schema.Struct({
  spaceId: SpaceId,
  title: Schema.optional(SiteSectionTitle),
  icon: Schema.optional(SiteSectionIcon),
  sectionGroupId: Schema.optional(SiteSectionGroupId)
})
export type AddSectionInput = typeof AddSectionInput.Type

export const UpdateSectionInput = Schema.Struct({
  title: Schema.optional(SiteSectionTitle),
  localizedTitle: Schema.optional(LocalizedTitle),
  path: Schema.optional(SiteSectionPath),
  defaultSiteSpace: Schema.optional(SiteSpaceId),
  condition: Schema.optional(Schema.NullOr(SiteCondition)),
  icon: Schema.optional(Schema.NullOr(SiteSectionIcon)),
  description: Schema.optional(Schema.NullOr(SiteSectionDescription)),
  localizedDescription: Schema.optional(LocalizedDescription),
  sectionGroupId: Schema.optional(Schema.NullOr(SiteSectionGroupId))
})
export type UpdateSectionInput = typeof UpdateSectionInput.Type

export const AddGroupInput = Schema.Struct({
  title: SiteSectionGroupTitle,
  icon: Schema.optional(SiteSectionGroupIcon),
  sections: Schema.optional(
    boundedArray(SiteSectionId, { max: 1000 }).pipe(
      Schema.filter((ids) => new Set(ids).size === ids.length || "must not name a section twice")
    )
  )
})
export type AddGroupInput = typeof AddGroupInput.Type

export const UpdateGroupInput = Schema.Struct({
  title: Schema.optional(SiteSectionGroupTitle),
  localizedTitle: Schema.optional(LocalizedTitle),
  icon: Schema.optional(Schema.NullOr(SiteSectionGroupIcon))
})
export type UpdateGroupInput = typeof UpdateGroupInput.Type

export const CreateShareLinkInput = Schema.Struct({ name: ShareLinkName })
export const UpdateShareLinkInput = Schema.Struct({ name: Schema.optional(ShareLinkName), active: Schema.optional(Schema.Boolean) })
export type UpdateShareLinkInput = typeof UpdateShareLinkInput.Type

export const UpdatePublishingAuthInput = Schema.Struct({
  backend: Schema.optional(Schema.Literal("custom")),
  fallbackURL: Schema.optional(Schema.NullOr(PublishingAuthUrl)),
  logoutURL: Schema.optional(Schema.NullOr(PublishingAuthUrl))
})
export type UpdatePublishingAuthInput = typeof UpdatePublishingAuthInput.Type

export { ShareKey as ShareKeyQuery } from "../spaces/Space.js"

/** The adaptive schema arrives as JSON, checked by `adaptiveSchemaProblem`; the document shows what that takes. */
export const AdaptiveSchemaInput = Schema.Struct({
  jsonSchema: StoredJson.annotations({ jsonSchema: adaptiveSchemaJsonSchema })
})
