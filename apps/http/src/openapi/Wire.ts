import { OpenAPISpec, OpenAPISpecVersion, ProcessError, SpecPermissions, TextFormat } from "@octavo/domain"
import { Schema } from "effect"

// Wire shapes of OpenAPI specs (GitBook's `OpenAPISpec`, `OpenAPISpecVersion`, `OpenAPISpecRawContent`),
// fields from the domain's where they match.

export const OpenAPISpecObject = Schema.Struct({
  object: Schema.Literal("openapi-spec"),
  ...OpenAPISpec.pick("id", "slug", "sourceURL", "processingState", "lastVersion", "lastProcessErrorCode").fields,
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  lastProcessedAt: Schema.optional(Schema.Date),
  /** The first errors of the last processing, when it failed. */
  lastProcessedErrors: Schema.optional(Schema.Array(ProcessError)),
  /** How many errors the last processing found, before the list was cut. */
  ...OpenAPISpec.pick("lastProcessedErrorCount").fields,
  permissions: SpecPermissions,
  urls: Schema.Struct({ location: Schema.String, app: Schema.String })
}).annotations({ identifier: "OpenAPISpec" })

export const OpenAPISpecVersionObject = Schema.Struct({
  object: Schema.Literal("openapi-spec-version"),
  ...OpenAPISpecVersion.pick("id").fields,
  createdAt: Schema.Date,
  /** Where the content came from: the URL it was fetched from, or the version itself for a text. */
  url: Schema.String,
  urls: Schema.Struct({ location: Schema.String })
}).annotations({ identifier: "OpenAPISpecVersion" })

export const OpenAPISpecRawContentObject = Schema.Struct({
  /** The text exactly as it was sent or fetched. */
  text: Schema.String,
  format: TextFormat
}).annotations({ identifier: "OpenAPISpecRawContent" })
