import type { OpenAPISpec, SpecView, VersionView } from "@octavo/domain"
import type { OpenAPISpecObject, OpenAPISpecVersionObject } from "./Wire.js"

/** The presenters of specs and versions, with URLs from the public base URL. */
export const openapiPresenters = (base: string) => {
  const location = (spec: OpenAPISpec) => `${base}/v1/orgs/${spec.organizationId}/openapi/${spec.slug}`

  const presentSpec = ({ permissions, spec }: SpecView): typeof OpenAPISpecObject.Type => ({
    object: "openapi-spec",
    id: spec.id,
    slug: spec.slug,
    sourceURL: spec.sourceURL,
    processingState: spec.processingState,
    lastVersion: spec.lastVersion,
    lastProcessErrorCode: spec.lastProcessErrorCode,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    lastProcessedAt: spec.lastProcessedAt,
    lastProcessedErrors: spec.lastProcessErrorCode === undefined ? undefined : spec.lastProcessedErrors,
    lastProcessedErrorCount: spec.lastProcessedErrorCount,
    permissions,
    urls: { location: location(spec), app: `${base}/o/${spec.organizationId}/openapi/${spec.slug}` }
  })

  const presentVersion = ({ spec, version }: VersionView): typeof OpenAPISpecVersionObject.Type => {
    const versionLocation = `${location(spec)}/versions/${version.id}`
    return {
      object: "openapi-spec-version",
      id: version.id,
      createdAt: version.createdAt,
      url: version.sourceURL ?? versionLocation,
      urls: { location: versionLocation }
    }
  }

  return { presentSpec, presentVersion }
}
