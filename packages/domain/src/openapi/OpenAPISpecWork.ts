import { Effect, Option } from "effect"
import { makeAccess } from "../organizations/Access.js"
import type { Member } from "../organizations/Organization.js"
import { NotFound } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { Secrets } from "../shared/Secrets.js"
import { type OpenAPISpec, OpenAPISpecVersionId, type SpecView, type TextFormat } from "./OpenAPISpec.js"
import { requireSpecRole, specPermissions } from "./Policy.js"
import { OpenAPISpecRepository, OpenAPISpecVersionRepository } from "./Ports.js"

/** A text that passed processing, with its hash. */
export interface Content {
  readonly text: string
  readonly format: TextFormat
  readonly hash: string
}

/** The fields of a spec whose job is done, with or without a failure. */
export const settled = (spec: OpenAPISpec, at: Date): OpenAPISpec => ({
  ...spec,
  processingState: "complete",
  lastProcessedAt: at,
  updatedAt: at,
  claim: undefined,
  leasedUntil: undefined
})

/**
 * What the openapi context's services share: the caller's role in the organization, finding a spec by its slug, and
 * recording a good content as the spec's last version.
 */
export const makeOpenAPISpecWork = Effect.gen(function*() {
  const specs = yield* OpenAPISpecRepository
  const versions = yield* OpenAPISpecVersionRepository
  const secrets = yield* Secrets
  const access = yield* makeAccess

  const member = (organizationId: OrganizationId, need: "read" | "write", action: string) =>
    Effect.tap(Effect.map(access(organizationId), (a) => a.member), (m) => requireSpecRole(m, need, action))

  const view = (m: Member) => (spec: OpenAPISpec): SpecView => ({
    spec,
    permissions: specPermissions(m)
  })

  const notFound = (slug: string) => new NotFound({ entity: "OpenAPI spec", id: slug })

  const find = (organizationId: OrganizationId, slug: string) =>
    Effect.flatMap(
      specs.findBySlug(organizationId, slug),
      Option.match({
        onNone: () => Effect.fail(notFound(slug)),
        onSome: Effect.succeed
      })
    )

  /** Records a good content: a new version unless its hash is the last version's; the spec complete without errors. */
  const recordContent = (spec: OpenAPISpec, content: Content, at: Date, sourceURL: string | undefined) =>
    Effect.gen(function*() {
      const last = spec.lastVersion === undefined ? Option.none() : yield* versions.find(spec.id, spec.lastVersion)
      let lastVersion = spec.lastVersion
      if (Option.isNone(last) || last.value.hash !== content.hash) {
        lastVersion = OpenAPISpecVersionId.make(yield* secrets.newId)
        yield* versions.insert({
          id: lastVersion,
          specId: spec.id,
          number: Option.match(last, { onNone: () => 1, onSome: (version) => version.number + 1 }),
          createdAt: at,
          hash: content.hash,
          format: content.format,
          sourceURL
        }, content.text)
      }
      const done: OpenAPISpec = {
        ...settled(spec, at),
        sourceURL,
        lastVersion,
        lastProcessErrorCode: undefined,
        lastProcessedErrors: [],
        lastProcessedErrorCount: 0
      }
      yield* specs.update(done)
      return done
    })

  return { member, view, find, recordContent } as const
})
