import {
  ContentSecurityPolicy,
  InstallationStatus,
  IntegrationBlock,
  IntegrationCategory,
  IntegrationConfigurations,
  IntegrationContentSource,
  IntegrationExternalLink,
  IntegrationInstallation,
  IntegrationPermissions,
  IntegrationScope,
  IntegrationTarget,
  IntegrationVisibility,
  Selection
} from "@octavo/domain"
import { Schema } from "effect"
import { OrganizationObject } from "../organizations/Wire.js"

// Wire shapes of integrations and their installations (GitBook's `Integration`, `IntegrationInstallation`),
// fields from the domain's where they match. The script and the secrets have none: they are never answered.

export const IntegrationObject = Schema.Struct({
  object: Schema.Literal("integration"),
  name: Schema.String,
  version: Schema.Number,
  title: Schema.String,
  description: Schema.String,
  summary: Schema.optional(Schema.String),
  /** URLs of the preview images. */
  previewImages: Schema.Array(Schema.String),
  target: IntegrationTarget,
  /** No integration is verified here. */
  verified: Schema.Boolean,
  visibility: IntegrationVisibility,
  scopes: Schema.Array(IntegrationScope),
  categories: Schema.Array(IntegrationCategory),
  blocks: Schema.Array(IntegrationBlock),
  contentSources: Schema.Array(IntegrationContentSource),
  configurations: Schema.optional(IntegrationConfigurations),
  externalLinks: Schema.Array(IntegrationExternalLink),
  owner: OrganizationObject,
  urls: Schema.Struct({
    location: Schema.String,
    icon: Schema.optional(Schema.String),
    app: Schema.String,
    assets: Schema.String,
    /** No script runs in this wave: the endpoint answers 404. */
    publicEndpoint: Schema.String,
    publicContentEndpoint: Schema.String
  }),
  permissions: IntegrationPermissions,
  contentSecurityPolicy: Schema.optional(ContentSecurityPolicy)
}).annotations({ identifier: "Integration" })

export const InstallationObject = Schema.Struct({
  id: IntegrationInstallation.fields.id,
  status: InstallationStatus,
  space_selection: Selection,
  site_selection: Selection,
  /** Spaces the installation manages: none, there are no space installations in this wave. */
  spaces: Schema.Number,
  configuration: IntegrationInstallation.fields.configuration,
  externalIds: Schema.Array(Schema.String),
  target: Schema.Struct({ organization: Schema.String }),
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  urls: Schema.Struct({
    location: Schema.String,
    app: Schema.String,
    publicEndpoint: Schema.String,
    publicContentEndpoint: Schema.String
  })
}).annotations({ identifier: "IntegrationInstallation" })
