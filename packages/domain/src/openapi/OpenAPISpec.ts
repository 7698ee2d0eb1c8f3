import { Schema } from "effect"
import { Conflict } from "../shared/Errors.js"
import { OrganizationId } from "../shared/Ids.js"
import { boundedString, HttpUrl, StoredString, utf8Length } from "../shared/Limits.js"

// OpenAPI specs (api.md "OpenAPI spec", conventions-2.md §5): documents stored per organization under
// a slug, from a text or from a URL a worker fetches; each distinct content is a version.

const opaqueId = <B extends string>(brand: B) =>
  StoredString.pipe(
    Schema.filter((s) => /^[A-Za-z0-9_-]{1,64}$/.test(s) || "must be an id (letters, digits, - and _)"),
    Schema.brand(brand)
  )

export const OpenAPISpecId = opaqueId("OpenAPISpecId")
export type OpenAPISpecId = typeof OpenAPISpecId.Type
export const OpenAPISpecVersionId = opaqueId("OpenAPISpecVersionId")
export type OpenAPISpecVersionId = typeof OpenAPISpecVersionId.Type

/** The longest text a spec may be, in bytes of UTF-8: 10 MiB, fetched or sent. */
export const MAX_SPEC_BYTES = 10 * 1024 * 1024
/** How long a fetch of a spec's URL may take, redirects and body included. */
export const SPEC_FETCH_TIMEOUT_MS = 10_000
/** How long a worker holds a job it took: past it, the job counts as abandoned and another worker takes it. */
export const SPEC_JOB_LEASE_MS = 60_000
/** The most processing errors a spec keeps; `lastProcessedErrorCount` counts them all. */
export const MAX_PROCESS_ERRORS = 20

/** api.md's slug: 1-100 characters, lower-case words of letters and digits joined by single hyphens. */
const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
export const SpecSlug = boundedString({ min: 1, max: 100 }).pipe(
  Schema.filter(
    (slug) =>
      slugPattern.test(slug) || `must be lower-case letters and digits in words joined by single hyphens (pattern ${slugPattern.source})`,
    { jsonSchema: { pattern: slugPattern.source } }
  )
)

/** GitBook's states: a failure is `complete` with an error code, never a state of its own (there is no `failed`). */
export const ProcessingState = Schema.Literal("pending", "progress", "complete")
export type ProcessingState = typeof ProcessingState.Type

export const ProcessErrorCode = Schema.Literal("FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR")
export type ProcessErrorCode = typeof ProcessErrorCode.Type

/** One thing processing found wrong (GitBook's `OpenAPIErrorObject`). */
export const ProcessError = Schema.Struct({ message: Schema.String, code: Schema.String })
export type ProcessError = typeof ProcessError.Type

export const TextFormat = Schema.Literal("json", "yaml")
export type TextFormat = typeof TextFormat.Type

export const OpenAPISpec = Schema.Struct({
  id: OpenAPISpecId,
  organizationId: OrganizationId,
  slug: Schema.String,
  createdAt: Schema.DateFromSelf,
  /** The last submission, or the last time processing recorded an outcome. */
  updatedAt: Schema.DateFromSelf,
  /** Where the spec is fetched from; absent for a spec given as text. */
  sourceURL: Schema.optional(Schema.String),
  processingState: ProcessingState,
  lastVersion: Schema.optional(OpenAPISpecVersionId),
  lastProcessedAt: Schema.optional(Schema.DateFromSelf),
  lastProcessErrorCode: Schema.optional(ProcessErrorCode),
  /** The first MAX_PROCESS_ERRORS errors of the last processing, when it failed. */
  lastProcessedErrors: Schema.Array(ProcessError),
  lastProcessedErrorCount: Schema.Number,
  /** When the job waiting or running was submitted: jobs are taken oldest first. */
  submittedAt: Schema.DateFromSelf,
  /** The worker's claim on the job in progress, and until when it holds. */
  claim: Schema.optional(Schema.String),
  leasedUntil: Schema.optional(Schema.DateFromSelf)
})
export type OpenAPISpec = typeof OpenAPISpec.Type

/** One content of a spec, made when processing finds a content whose hash differs from the last version's. */
export const OpenAPISpecVersion = Schema.Struct({
  id: OpenAPISpecVersionId,
  specId: OpenAPISpecId,
  /** 1 for the first version of the spec, then counting up: the newest has the highest. */
  number: Schema.Number,
  createdAt: Schema.DateFromSelf,
  /** SHA-256 of the text's UTF-8 bytes, hex. */
  hash: Schema.String,
  format: TextFormat,
  /** The URL it was fetched from, when it was. */
  sourceURL: Schema.optional(Schema.String)
})
export type OpenAPISpecVersion = typeof OpenAPISpecVersion.Type

/** A spec's text: 1 byte to 10 MiB of UTF-8. */
export const SpecText = StoredString.pipe(
  Schema.filter((text) => {
    const bytes = utf8Length(text)
    if (bytes < 1) return "must not be empty"
    if (bytes > MAX_SPEC_BYTES) return `must be at most ${MAX_SPEC_BYTES} bytes (10 MiB) of UTF-8, got ${bytes}`
    return true
  }, { jsonSchema: { minLength: 1 } })
)

/** GitBook's `OpenAPISpecSource`: exactly one of `{url}` and `{text}`. */
export const SpecSource = Schema.Struct({
  url: Schema.optional(HttpUrl),
  text: Schema.optional(SpecText)
}).pipe(
  Schema.filter((source) => (source.url === undefined) !== (source.text === undefined) || "must have exactly one of url and text")
)
export type SpecSource = typeof SpecSource.Type

/** GitBook's `visibility`: not supported (decision 6), so any value is refused. */
const Unsupported = Schema.Unknown.pipe(
  Schema.filter(() => "is not supported: an OpenAPI spec is visible to its organization's members only")
)

export const CreateSpecInput = Schema.Struct({
  slug: SpecSlug,
  source: SpecSource,
  visibility: Schema.optional(Unsupported)
})
export type CreateSpecInput = typeof CreateSpecInput.Type

export const PutSpecInput = Schema.Struct({
  source: SpecSource,
  visibility: Schema.optional(Unsupported)
})
export type PutSpecInput = typeof PutSpecInput.Type

/** What the caller may do with a spec (GitBook's `permissions`). */
export const SpecPermissions = Schema.Struct({ view: Schema.Boolean, edit: Schema.Boolean })
export type SpecPermissions = typeof SpecPermissions.Type

/** A spec as read: the spec and what the caller may do with it. */
export interface SpecView {
  readonly spec: OpenAPISpec
  readonly permissions: SpecPermissions
}

/** A version as read, with the spec it belongs to (its URLs name the spec's slug). */
export interface VersionView {
  readonly spec: OpenAPISpec
  readonly version: OpenAPISpecVersion
}

/** Every adapter refuses a second spec with a slug in the same words. */
export const specSlugTaken = (slug: string) => new Conflict({ reason: `An OpenAPI spec with the slug ${slug} exists already` })
