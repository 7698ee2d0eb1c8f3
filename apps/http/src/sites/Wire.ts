import { ShareLink, Site, SitePermissions, SiteRedirect, SiteSection, SiteSectionGroup, SiteSpace, SiteType } from "@octavo/domain"
import { Schema } from "effect"
import { SpaceObject } from "../spaces/Wire.js"

// Wire shapes of sites (GitBook's `Site`, `SiteSpace`, `SiteSection`, `SiteSectionGroup`, `ShareLink`,
// `SitePublishingAuth`, `SiteAdaptiveSchema`, `PublishedContentSite`), fields from the domain's where they match.

/** GitBook's `SiteFeature`: Octavo has no plans, so each feature is on the site's own type and never frozen. */
const SiteFeature = Schema.Struct({ id: Schema.String, plan: SiteType, frozen: Schema.Boolean })

export const SiteObject = Schema.Struct({
  object: Schema.Literal("site"),
  ...Site.pick("id", "type", "title", "visibility", "published").fields,
  /** Always `type`: no site is frozen to another. */
  appliedType: SiteType,
  basename: Schema.optional(Schema.String),
  /** Where the operator's proxy serves the site, and the native URL it forwards to. */
  proxy: Schema.optional(Schema.Struct({ origin: Schema.String, target: Schema.String })),
  defaultLevel: Schema.Literal("inherit"),
  permissions: SitePermissions,
  /** How many site spaces it has, those of soft-deleted spaces not counted. */
  siteSpaces: Schema.Number,
  createdAt: Schema.Date,
  adaptiveContent: Schema.Struct({ enabled: Schema.Boolean }),
  features: Schema.Array(SiteFeature),
  urls: Schema.Struct({
    location: Schema.String,
    app: Schema.String,
    /** The members' preview: the published view through the API, published or not. */
    preview: Schema.String,
    /** Only while the site is published. */
    published: Schema.optional(Schema.String)
  })
}).annotations({ identifier: "Site" })

/** Published URLs exist only while the site is published. */
const PublishedUrls = Schema.Struct({ published: Schema.optional(Schema.String) })

export const SiteSpaceObject = Schema.Struct({
  object: Schema.Literal("site-space"),
  ...SiteSpace.pick("id", "path").fields,
  /** The section it is in. */
  section: Schema.optional(Schema.String),
  space: SpaceObject,
  /** The space's title. */
  title: Schema.String,
  /** Only when it has one in another language. */
  localizedTitle: Schema.optional(SiteSpace.fields.localizedTitle),
  default: Schema.Boolean,
  condition: Schema.optional(Schema.String),
  draft: Schema.Boolean,
  /** Left out of the site's navigation. */
  hidden: Schema.Boolean,
  urls: PublishedUrls
}).annotations({ identifier: "SiteSpace" })

export const SiteSectionObject = Schema.Struct({
  object: Schema.Literal("site-section"),
  ...SiteSection.pick("id", "title", "path").fields,
  localizedTitle: Schema.optional(SiteSection.fields.localizedTitle),
  description: Schema.optional(Schema.String),
  localizedDescription: Schema.optional(SiteSection.fields.localizedDescription),
  icon: Schema.optional(Schema.String),
  default: Schema.Boolean,
  draft: Schema.Boolean,
  condition: Schema.optional(Schema.String),
  /** The group it is in. */
  sectionGroup: Schema.optional(Schema.String),
  siteSpaces: Schema.Array(SiteSpaceObject),
  urls: PublishedUrls
}).annotations({ identifier: "SiteSection" })

export const SiteSectionGroupObject = Schema.Struct({
  object: Schema.Literal("site-section-group"),
  ...SiteSectionGroup.pick("id", "title").fields,
  localizedTitle: Schema.optional(SiteSectionGroup.fields.localizedTitle),
  icon: Schema.optional(Schema.String),
  draft: Schema.Boolean,
  /** Its sections in order (GitBook's deprecated field). */
  sections: Schema.Array(SiteSectionObject),
  /** The same sections: groups do not nest. */
  children: Schema.Array(SiteSectionObject)
}).annotations({ identifier: "SiteSectionGroup" })

export const ShareLinkObject = Schema.Struct({
  object: Schema.Literal("share-link"),
  ...ShareLink.pick("id", "name", "active").fields,
  createdAt: Schema.Date,
  /** The key appears only in `published`, which exists even while the site is unpublished. */
  urls: Schema.Struct({ location: Schema.String, published: Schema.String })
}).annotations({ identifier: "ShareLink" })

export const PublishingAuthObject = Schema.Struct({
  object: Schema.Literal("publishing-auth"),
  backend: Schema.Literal("custom"),
  /** The secret that signs visitor tokens (HS256). */
  privateKey: Schema.String,
  fallbackURL: Schema.optional(Schema.String),
  logoutURL: Schema.optional(Schema.String)
}).annotations({ identifier: "SitePublishingAuth" })

export const AdaptiveSchemaObject = Schema.Struct({
  object: Schema.Literal("site-adaptive-schema"),
  jsonSchema: Schema.Unknown,
  updatedAt: Schema.Date
}).annotations({ identifier: "SiteAdaptiveSchema" })

export const SiteStructureObject = Schema.Union(
  Schema.Struct({ type: Schema.Literal("siteSpaces"), structure: Schema.Array(SiteSpaceObject) }),
  Schema.Struct({ type: Schema.Literal("sections"), structure: Schema.Array(Schema.Union(SiteSectionObject, SiteSectionGroupObject)) })
).annotations({ identifier: "SiteStructure" })

export const PublishedContentSiteObject = Schema.Struct({
  object: Schema.Literal("published-content-site"),
  site: SiteObject,
  structure: SiteStructureObject,
  customizations: Schema.Struct({
    /** GitBook's `SiteCustomizationSettings`, fixed defaults until customization can be changed. */
    site: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    siteSpaces: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  }),
  scripts: Schema.Array(Schema.Unknown)
}).annotations({ identifier: "PublishedContentSite" })

export const SiteRedirectObject = Schema.Struct({
  object: Schema.Literal("site-redirect"),
  ...SiteRedirect.pick("id", "source", "draft", "captureWildcard", "permanent", "destination").fields,
  createdAt: Schema.Date,
  /** Absent until changed. */
  updatedAt: Schema.optional(Schema.Date)
}).annotations({ identifier: "SiteRedirect" })

/** GitBook's answer to a bulk upsert: one result per operation, in order. */
export const BulkSiteRedirectsObject = Schema.Struct({
  results: Schema.Array(Schema.Union(
    Schema.Struct({
      status: Schema.Literal("created", "updated", "published"),
      source: Schema.String,
      draft: Schema.Boolean,
      id: Schema.String
    }),
    Schema.Struct({ status: Schema.Literal("deleted"), source: Schema.String, draft: Schema.Boolean }),
    Schema.Struct({ status: Schema.Literal("error"), source: Schema.String, draft: Schema.Boolean, error: Schema.String })
  ))
})

/** A source resolved: its live redirect, and the URL it leads to. */
export const ResolvedSiteRedirectObject = Schema.Struct({ redirect: SiteRedirectObject, target: Schema.String })
