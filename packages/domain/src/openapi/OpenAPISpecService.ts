import { Effect, Option } from "effect"
import { InvalidInput } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { validate } from "../shared/Limits.js"
import { mapPage, type PageRequest } from "../shared/Pagination.js"
import { HeavyWork } from "../shared/HeavyWork.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { FetchGuard } from "../shared/WebFetch.js"
import {
  CreateSpecInput,
  type OpenAPISpec,
  OpenAPISpecId,
  type ProcessError,
  PutSpecInput,
  SpecSlug,
  type SpecSource
} from "./OpenAPISpec.js"
import { OpenAPISpecWorker } from "./OpenAPISpecWorkerService.js"
import { type Content, makeOpenAPISpecWork } from "./OpenAPISpecWork.js"
import { OpenAPISpecRepository } from "./Ports.js"
import { processSpecTask } from "./Process.js"

/** The worst a processing error list says, in one sentence for a 400. */
const summary = (errors: ReadonlyArray<ProcessError>, count: number): string => {
  const shown = errors.slice(0, 3).map((error) => error.message).join("; ")
  return `is not a valid OpenAPI document: ${shown}${count > 3 ? ` (and ${count - 3} more)` : ""}`
}

/**
 * OpenAPI specs (conventions-2.md §5), the API's `openapi` group without its versions: stored per organization under
 * a slug. A text is processed within the request; a URL is queued, and `OpenAPISpecWorker` fetches and processes it.
 * A content whose hash differs from the last version's becomes a new version.
 */
export class OpenAPISpecs extends Effect.Service<OpenAPISpecs>()("@octavo/domain/OpenAPISpecs", {
  effect: Effect.gen(function*() {
    const specs = yield* OpenAPISpecRepository
    const guard = yield* FetchGuard
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const work = yield* HeavyWork
    const worker = yield* OpenAPISpecWorker
    const { find, member, recordContent, view } = yield* makeOpenAPISpecWork

    /** A text sent as a source: processed now; if invalid, the request fails and nothing changes. */
    const processText = (text: string) =>
      Effect.gen(function*() {
        const unreadable = ({ rule }: { readonly rule: string }) => new InvalidInput({ field: "source.text", rule })
        const processed = yield* Effect.mapError(work.run(processSpecTask, text), unreadable)
        if (!processed.ok) return yield* new InvalidInput({ field: "source.text", rule: summary(processed.errors, processed.count) })
        // The token hash is SHA-256 of the text's UTF-8 bytes, hex: the content hash.
        return { text, format: processed.format, hash: yield* secrets.hashToken(text) } satisfies Content
      })

    /** A URL sent as a source: the fetch guard's checks now, so that a URL it would refuse is a 400, not a failed job. */
    const checkUrl = (url: string) =>
      Effect.mapError(guard.check(url), (failed) => new InvalidInput({ field: "source.url", rule: failed.reason }))

    /** What a source becomes before any write: a processed text, or a URL the guard lets through. */
    const prepare = (source: SpecSource) =>
      source.text !== undefined
        ? Effect.map(processText(source.text), (content) => ({ _tag: "text" as const, content }))
        : Effect.as(checkUrl(source.url ?? ""), { _tag: "url" as const, url: source.url ?? "" })

    type Prepared = Effect.Effect.Success<ReturnType<typeof prepare>>

    /** The spec as a source makes it: a text recorded at once, a URL queued for the worker. */
    const apply = (spec: OpenAPISpec, prepared: Prepared, at: Date) =>
      prepared._tag === "text"
        ? recordContent(spec, prepared.content, at, undefined)
        : Effect.gen(function*() {
          const queued: OpenAPISpec = {
            ...spec,
            sourceURL: prepared.url,
            processingState: "pending",
            submittedAt: at,
            updatedAt: at,
            claim: undefined,
            leasedUntil: undefined
          }
          yield* specs.update(queued)
          return queued
        })

    /** A new spec, inserted and then given its source, in the caller's unit of work. */
    const insert = (organizationId: OrganizationId, slug: string, prepared: Prepared) =>
      Effect.gen(function*() {
        const at = yield* now
        const spec: OpenAPISpec = {
          id: OpenAPISpecId.make(yield* secrets.newId),
          organizationId,
          slug,
          createdAt: at,
          updatedAt: at,
          processingState: "pending",
          lastProcessedErrors: [],
          lastProcessedErrorCount: 0,
          submittedAt: at
        }
        yield* specs.insert(spec)
        return yield* apply(spec, prepared, at)
      })

    const list = (organizationId: OrganizationId, page: PageRequest) =>
      Effect.gen(function*() {
        const m = yield* member(organizationId, "read", "read OpenAPI specs")
        return mapPage(yield* specs.list(organizationId, page), view(m))
      })

    const get = (organizationId: OrganizationId, slug: string) =>
      Effect.gen(function*() {
        const m = yield* member(organizationId, "read", "read OpenAPI specs")
        return view(m)(yield* find(organizationId, slug))
      })

    /** A new spec under a slug not taken (409 otherwise). */
    const create = (organizationId: OrganizationId, input: CreateSpecInput) =>
      Effect.gen(function*() {
        const m = yield* member(organizationId, "write", "create OpenAPI specs")
        const valid = yield* validate(CreateSpecInput)(input)
        const prepared = yield* prepare(valid.source)
        const spec = yield* uow.transaction(insert(organizationId, valid.slug, prepared))
        yield* worker.wakeIfQueued(spec)
        return view(m)(spec)
      })

    /** Replaces the source of the spec under the slug, or creates it (`created`). The same URL again fetches again. */
    const put = (organizationId: OrganizationId, slug: string, input: PutSpecInput) =>
      Effect.gen(function*() {
        const m = yield* member(organizationId, "write", "create or update OpenAPI specs")
        const validSlug = yield* Effect.mapError(
          validate(SpecSlug)(slug),
          (invalid) => new InvalidInput({ field: "specSlug", rule: invalid.rule })
        )
        const valid = yield* validate(PutSpecInput)(input)
        const prepared = yield* prepare(valid.source)
        const attempt = uow.transaction(Effect.gen(function*() {
          const held = yield* specs.lockBySlug(organizationId, validSlug)
          if (Option.isNone(held)) return { spec: yield* insert(organizationId, validSlug, prepared), created: true }
          return { spec: yield* apply(held.value, prepared, yield* now), created: false }
        }))
        // Two first PUTs of one slug at once: the one that lost the insert updates what the other made.
        const { created, spec } = yield* Effect.catchTag(attempt, "Conflict", () => attempt)
        yield* worker.wakeIfQueued(spec)
        return { view: view(m)(spec), created }
      })

    const remove = (organizationId: OrganizationId, slug: string) =>
      Effect.gen(function*() {
        yield* member(organizationId, "write", "delete OpenAPI specs")
        const spec = yield* find(organizationId, slug)
        yield* specs.remove(spec.id)
      })

    return { list, get, create, put, remove } as const
  })
}) {}
