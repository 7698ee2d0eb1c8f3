import { Effect, Option, Schema } from "effect"
import { NotFound } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { mapPage, type PageRequest } from "../shared/Pagination.js"
import { OpenAPISpecVersionId, type VersionView } from "./OpenAPISpec.js"
import { makeOpenAPISpecWork } from "./OpenAPISpecWork.js"
import { OpenAPISpecVersionRepository } from "./Ports.js"

/** The versions of an OpenAPI spec (conventions-2.md §5): each content whose hash differed from the last's, and its text. */
export class OpenAPISpecVersions extends Effect.Service<OpenAPISpecVersions>()("@octavo/domain/OpenAPISpecVersions", {
  effect: Effect.gen(function*() {
    const versions = yield* OpenAPISpecVersionRepository
    const { find, member } = yield* makeOpenAPISpecWork

    const isVersionId = Schema.is(OpenAPISpecVersionId)

    const listVersions = (organizationId: OrganizationId, slug: string, page: PageRequest) =>
      Effect.gen(function*() {
        yield* member(organizationId, "read", "read OpenAPI specs")
        const spec = yield* find(organizationId, slug)
        return mapPage(yield* versions.list(spec.id, page), (version): VersionView => ({ spec, version }))
      })

    const latestVersion = (organizationId: OrganizationId, slug: string) =>
      Effect.gen(function*() {
        yield* member(organizationId, "read", "read OpenAPI specs")
        const spec = yield* find(organizationId, slug)
        const version = spec.lastVersion === undefined ? Option.none() : yield* versions.find(spec.id, spec.lastVersion)
        if (Option.isNone(version)) return yield* new NotFound({ entity: "version of the OpenAPI spec", id: slug })
        return { spec, version: version.value } satisfies VersionView
      })

    const version = (organizationId: OrganizationId, slug: string, versionId: string) =>
      Effect.gen(function*() {
        yield* member(organizationId, "read", "read OpenAPI specs")
        const spec = yield* find(organizationId, slug)
        const version = isVersionId(versionId) ? yield* versions.find(spec.id, versionId) : Option.none()
        if (Option.isNone(version)) return yield* new NotFound({ entity: "OpenAPI spec version", id: versionId })
        return { spec, version: version.value } satisfies VersionView
      })

    /** The latest version's text exactly as it was given or fetched, and its format. */
    const latestContent = (organizationId: OrganizationId, slug: string) =>
      Effect.gen(function*() {
        yield* member(organizationId, "read", "read OpenAPI specs")
        const spec = yield* find(organizationId, slug)
        const missing = new NotFound({ entity: "version of the OpenAPI spec", id: slug })
        if (spec.lastVersion === undefined) return yield* missing
        const version = yield* versions.find(spec.id, spec.lastVersion)
        const text = yield* versions.text(spec.lastVersion)
        if (Option.isNone(version) || Option.isNone(text)) return yield* missing
        return { text: text.value, format: version.value.format }
      })

    return { listVersions, latestVersion, version, latestContent } as const
  })
}) {}
