import { Schema } from "effect"
import { OrganizationId } from "../shared/Ids.js"
import {
  boundedArray,
  boundedString,
  HttpUrl,
  StoredJson,
  StoredString,
  storedKeysRecord,
  unstorableText,
  utf8Length
} from "../shared/Limits.js"

// Integrations: limits from api.md's "Limits" table and conventions-2.md §7, shapes from GitBook's
// PublishIntegration, Integration and IntegrationInstallation.

export const MAX_NAME_LENGTH = 100
export const MAX_SCRIPT_BYTES = 5 * 1024 * 1024
export const MAX_IMAGE_BYTES = 1024 * 1024
export const MAX_SECRETS = 50
export const MAX_SECRET_LENGTH = 4096
export const MAX_EXTERNAL_IDS = 5

const namePattern = /^[a-zA-Z0-9-_.]+$/

/** A name as GitBook's are: 1-100 letters, digits, -, _ and . (one refinement, so validating the type checks both). */
const nameLike = boundedString({ min: 1, max: MAX_NAME_LENGTH }).pipe(
  Schema.filter((s) => namePattern.test(s) || `must be letters, digits, -, _ and . (pattern ${namePattern.source})`, {
    jsonSchema: { pattern: namePattern.source }
  })
)

export const IntegrationName = nameLike
export type IntegrationName = typeof IntegrationName.Type

export const InstallationId = StoredString.pipe(
  Schema.filter((s) => /^[A-Za-z0-9_-]{1,64}$/.test(s) || "must be an id (letters, digits, - and _)"),
  Schema.brand("InstallationId")
)
export type InstallationId = typeof InstallationId.Type

/** GitBook's 17 IntegrationScope values and the seed's `space:views:read`. */
export const IntegrationScope = Schema.Literal(
  "space:content:read",
  "space:content:write",
  "space:metadata:read",
  "space:metadata:write",
  "space:git:sync",
  "space:views:read",
  "page:feedback:read",
  "site:metadata:read",
  "site:views:read",
  "site:script:inject",
  "site:script:cookies",
  "site:visitor:auth",
  "site:visitor:claims",
  "site:adaptive:read",
  "site:adaptive:write",
  "conversations:ingest",
  "openapi:read",
  "openapi:write"
)
export type IntegrationScope = typeof IntegrationScope.Type

export const IntegrationCategory = Schema.Literal("analytics", "collaboration", "content", "marketing", "visitor-auth", "other")
export type IntegrationCategory = typeof IntegrationCategory.Type

export const IntegrationVisibility = Schema.Literal("public", "private", "unlisted")
export type IntegrationVisibility = typeof IntegrationVisibility.Type

export const IntegrationTarget = Schema.Literal("all", "site", "space", "organization")
export type IntegrationTarget = typeof IntegrationTarget.Type

export const IntegrationTitle = boundedString({ min: 2, max: 30 })
export const IntegrationDescription = boundedString({ max: 100 })
export const IntegrationSummary = boundedString({ max: 2048 })

/** GitBook's IntegrationBlock. */
export const IntegrationBlock = Schema.Struct({
  id: StoredString,
  title: boundedString({ min: 2, max: 40 }),
  description: Schema.optional(boundedString({ max: 150 })),
  icon: Schema.optional(StoredString),
  urlUnfurl: Schema.optional(Schema.Array(StoredString)),
  markdown: Schema.optional(Schema.Struct({ codeblock: StoredString, body: StoredString }))
})
export type IntegrationBlock = typeof IntegrationBlock.Type

/** GitBook's IntegrationContentSource. */
export const IntegrationContentSource = Schema.Struct({
  id: StoredString,
  title: boundedString({ min: 2, max: 40 }),
  description: Schema.optional(boundedString({ max: 150 })),
  icon: Schema.optional(StoredString),
  configuration: Schema.Struct({ componentId: StoredString })
})
export type IntegrationContentSource = typeof IntegrationContentSource.Type

export const IntegrationExternalLink = Schema.Struct({ url: HttpUrl, label: StoredString })
export type IntegrationExternalLink = typeof IntegrationExternalLink.Type

const propertyText = {
  title: Schema.optional(boundedString({ min: 2, max: 50 })),
  description: Schema.optional(boundedString({ max: 100 }))
}

/** One property of a configuration schema: GitBook's four kinds. */
export const IntegrationConfigurationProperty = Schema.Union(
  Schema.Struct({
    ...propertyText,
    type: Schema.Literal("string"),
    default: Schema.optional(StoredString),
    completion_url: Schema.optional(StoredString),
    enum: Schema.optional(Schema.Array(StoredString))
  }),
  Schema.Struct({ ...propertyText, type: Schema.Literal("number"), default: Schema.optional(Schema.Number) }),
  Schema.Struct({ ...propertyText, type: Schema.Literal("boolean"), default: Schema.optional(Schema.Boolean) }),
  Schema.Struct({ ...propertyText, type: Schema.Literal("button"), callback_url: StoredString, button_text: StoredString })
)
export type IntegrationConfigurationProperty = typeof IntegrationConfigurationProperty.Type

/** GitBook's IntegrationConfigurationSchema, whose `required` names only its properties, each once. */
export const IntegrationConfigurationSchema = Schema.Struct({
  properties: storedKeysRecord(IntegrationConfigurationProperty),
  required: Schema.optional(Schema.Array(StoredString))
}).pipe(
  Schema.filter((schema) => {
    const seen = new Set<string>()
    for (const [index, name] of (schema.required ?? []).entries()) {
      if (!Object.hasOwn(schema.properties, name)) {
        return { path: ["required", index], message: `${name} is not one of the properties` }
      }
      if (seen.has(name)) return { path: ["required", index], message: `${name} is listed twice` }
      seen.add(name)
    }
    return true
  })
)
export type IntegrationConfigurationSchema = typeof IntegrationConfigurationSchema.Type

export const IntegrationConfigurations = Schema.Struct({
  account: Schema.optional(IntegrationConfigurationSchema),
  space: Schema.optional(IntegrationConfigurationSchema),
  site: Schema.optional(IntegrationConfigurationSchema)
})
export type IntegrationConfigurations = typeof IntegrationConfigurations.Type

/** Text that can go in an HTTP header: no control characters, so no CR or LF to start another header. */
const headerText = StoredString.pipe(
  Schema.filter((s) =>
    !Array.from(s).some((c) => c < " " || c === "\u007f") ||
    "must not contain control characters such as CR or LF (it is sent as a header)"
  )
)

/** A policy as one header value, or GitBook's object of directives. */
export const ContentSecurityPolicy = Schema.Union(
  headerText,
  storedKeysRecord(headerText).pipe(
    Schema.filter((directives) => {
      const wrong = Object.keys(directives).find((name) => !/^[A-Za-z0-9-]+$/.test(name))
      return wrong === undefined || { path: [wrong], message: "directive names must be letters, digits and -" }
    })
  )
)
export type ContentSecurityPolicy = typeof ContentSecurityPolicy.Type

const secretName = /^[A-Za-z_]\w{0,63}$/

/** A secret's value; its failures never quote it, not even when it comes as a number or an object. */
const SecretValue = Schema.String.annotations({ message: () => "must be a string (secret values are strings)" }).pipe(
  Schema.filter((s) => unstorableText(s) ?? true),
  Schema.filter((s) => s.length <= MAX_SECRET_LENGTH || `must be at most ${MAX_SECRET_LENGTH} characters, got ${s.length}`, {
    jsonSchema: { maxLength: MAX_SECRET_LENGTH }
  })
)

/** Secrets to store: at most 50, named like variables, each value at most 4096 characters. */
export const IntegrationSecretsInput = storedKeysRecord(SecretValue).pipe(
  Schema.filter((secrets) => {
    const names = Object.keys(secrets)
    if (names.length > MAX_SECRETS) return `must have at most ${MAX_SECRETS} keys, got ${names.length}`
    const wrong = names.find((name) => !secretName.test(name))
    return wrong === undefined ? true : { path: [wrong], message: `key must match ${secretName.source}` }
  })
)

/** The script's source: at most 5 MiB of UTF-8. */
export const IntegrationScript = StoredString.pipe(
  Schema.filter((s) => {
    const bytes = utf8Length(s)
    return bytes <= MAX_SCRIPT_BYTES || `must be at most ${MAX_SCRIPT_BYTES} bytes (5 MiB), got ${bytes}`
  })
)

/** Base64 text of at most 1 MiB of bytes; what they hold is checked when they are read (see Images.ts). */
export const Base64Image = StoredString.pipe(
  Schema.filter((s) => (s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s)) || "must be base64 (RFC 4648, with padding)"),
  Schema.filter((s) => {
    const bytes = s.length / 4 * 3 - (s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0)
    return bytes <= MAX_IMAGE_BYTES || `must be at most ${MAX_IMAGE_BYTES} bytes (1 MiB) once decoded, got ${bytes}`
  })
)

/** GitBook's PublishIntegration (its `runtime` is not read: there is no runtime in this wave). */
export const PublishIntegrationInput = Schema.Struct({
  organization: StoredString,
  title: IntegrationTitle,
  description: IntegrationDescription,
  summary: Schema.optional(IntegrationSummary),
  icon: Schema.optional(Base64Image),
  previewImages: Schema.optional(boundedArray(Base64Image, { max: 3 })),
  visibility: Schema.optional(IntegrationVisibility),
  target: Schema.optional(IntegrationTarget),
  scopes: Schema.Array(IntegrationScope),
  categories: Schema.optional(Schema.Array(IntegrationCategory)),
  blocks: Schema.optional(Schema.Array(IntegrationBlock)),
  contentSources: Schema.optional(Schema.Array(IntegrationContentSource)),
  externalLinks: Schema.optional(boundedArray(IntegrationExternalLink, { max: 5 })),
  configurations: Schema.optional(IntegrationConfigurations),
  script: IntegrationScript,
  secrets: Schema.optional(IntegrationSecretsInput),
  contentSecurityPolicy: Schema.optional(ContentSecurityPolicy)
})
export type PublishIntegrationInput = typeof PublishIntegrationInput.Type

export const ImageType = Schema.Literal("image/png", "image/jpeg", "image/webp", "image/svg+xml")
export type ImageType = typeof ImageType.Type

/** An image kept as a content-addressed blob: its sha-256 and its type. */
export const IntegrationAsset = Schema.Struct({ key: Schema.String, contentType: ImageType })
export type IntegrationAsset = typeof IntegrationAsset.Type

/** A published integration as stored. Its script and sealed secrets are never answered. */
export const Integration = Schema.Struct({
  name: Schema.String,
  version: Schema.Number,
  ownerId: OrganizationId,
  title: Schema.String,
  description: Schema.String,
  summary: Schema.optional(Schema.String),
  icon: Schema.optional(IntegrationAsset),
  previewImages: Schema.Array(IntegrationAsset),
  visibility: IntegrationVisibility,
  target: IntegrationTarget,
  scopes: Schema.Array(IntegrationScope),
  categories: Schema.Array(IntegrationCategory),
  blocks: Schema.Array(IntegrationBlock),
  contentSources: Schema.Array(IntegrationContentSource),
  externalLinks: Schema.Array(IntegrationExternalLink),
  configurations: Schema.optional(IntegrationConfigurations),
  contentSecurityPolicy: Schema.optional(ContentSecurityPolicy),
  /** The lower-cased hosts of the blocks' `urlUnfurl` patterns, for the `blockDomain` filter. */
  blockDomains: Schema.Array(Schema.String),
  /** The sha-256 of this version's script, the key of its blob. */
  scriptKey: Schema.String,
  /** The secrets as one sealed JSON object; absent when there are none. */
  sealedSecrets: Schema.optional(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type Integration = typeof Integration.Type

/** One published version: the script it ran, kept immutable. */
export const IntegrationVersion = Schema.Struct({
  name: Schema.String,
  version: Schema.Number,
  scriptKey: Schema.String,
  publishedAt: Schema.DateFromSelf
})
export type IntegrationVersion = typeof IntegrationVersion.Type

export const Selection = Schema.Literal("all", "selected")
export type Selection = typeof Selection.Type

/** An installation's configuration: JSON values by property name. */
export const InstallationConfiguration = storedKeysRecord(StoredJson)
export type InstallationConfiguration = typeof InstallationConfiguration.Type

export const IntegrationInstallation = Schema.Struct({
  id: InstallationId,
  /** The integration's name as it was first published. */
  integrationName: Schema.String,
  organizationId: OrganizationId,
  externalIds: Schema.Array(Schema.String),
  configuration: InstallationConfiguration,
  spaceSelection: Selection,
  siteSelection: Selection,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type IntegrationInstallation = typeof IntegrationInstallation.Type

export const InstallIntegrationInput = Schema.Struct({ organization: StoredString })
export type InstallIntegrationInput = typeof InstallIntegrationInput.Type

/** GitBook's UpdateIntegrationInstallation. */
export const UpdateInstallationInput = Schema.Struct({
  externalIds: Schema.optional(boundedArray(StoredString, { max: MAX_EXTERNAL_IDS })),
  configuration: Schema.optional(InstallationConfiguration),
  space_selection: Schema.optional(Selection),
  site_selection: Schema.optional(Selection)
})
export type UpdateInstallationInput = typeof UpdateInstallationInput.Type

export const InstallationStatus = Schema.Literal("active", "pending")
export type InstallationStatus = typeof InstallationStatus.Type

export const IntegrationPermissions = Schema.Struct({ admin: Schema.Boolean, install: Schema.Boolean })
export type IntegrationPermissions = typeof IntegrationPermissions.Type

/** The list filters of conventions-2.md §7. */
export const IntegrationListQuery = Schema.Struct({
  search: Schema.optional(StoredString),
  category: Schema.optional(IntegrationCategory),
  blockDomain: Schema.optional(nameLike),
  blocks: Schema.optional(Schema.Boolean),
  contentSources: Schema.optional(Schema.Boolean),
  owner: Schema.optional(StoredString)
})
export type IntegrationListQuery = typeof IntegrationListQuery.Type
