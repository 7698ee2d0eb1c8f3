import { Effect, Option, Queue, Schema } from "effect"
import { makeAccess } from "../organizations/Access.js"
import type { Member } from "../organizations/Organization.js"
import { InvalidInput, NotFound } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { unstorableText, validate } from "../shared/Limits.js"
import { mapPage, type PageRequest } from "../shared/Pagination.js"
import { HeavyWork } from "../shared/HeavyWork.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { FetchGuard, WebFetcher } from "../shared/WebFetch.js"
import {
  CreateSpecInput,
  MAX_SPEC_BYTES,
  type OpenAPISpec,
  OpenAPISpecId,
  OpenAPISpecVersionId,
  type ProcessError,
  type ProcessErrorCode,
  PutSpecInput,
  SPEC_FETCH_TIMEOUT_MS,
  SPEC_JOB_LEASE_MS,
  SpecSlug,
  type SpecSource,
  type SpecView,
  type TextFormat,
  type VersionView
} from "./OpenAPISpec.js"
import { requireSpecRole, specPermissions } from "./Policy.js"
import { OpenAPISpecRepository, OpenAPISpecVersionRepository } from "./Ports.js"
import { processSpecTask } from "./Process.js"

/** A text that passed processing, with its hash. */
interface Content {
  readonly text: string
  readonly format: TextFormat
  readonly hash: string
}

/** How processing a URL ended: a content, or a failure to record. */
type Outcome =
  | { readonly ok: true; readonly content: Content }
  | {
    readonly ok: false
    readonly code: ProcessErrorCode
    readonly errors: ReadonlyArray<ProcessError>
    readonly count: number
  }

const failure = (code: ProcessErrorCode, message: string): Outcome => ({ ok: false, code, errors: [{ message, code }], count: 1 })

/** The worst a processing error list says, in one sentence for a 400. */
const summary = (errors: ReadonlyArray<ProcessError>, count: number): string => {
  const shown = errors.slice(0, 3).map((error) => error.message).join("; ")
  return `is not a valid OpenAPI document: ${shown}${count > 3 ? ` (and ${count - 3} more)` : ""}`
}

/** A fetched answer's bytes as text, exactly (a byte order mark is kept), or why they are not text. */
const decodeText = (body: Uint8Array, charset: string | undefined): string | { readonly problem: string } => {
  try {
    return new TextDecoder(charset ?? "utf-8", { fatal: true, ignoreBOM: true }).decode(body)
  } catch {
    return { problem: `the answer is not text in ${charset ?? "UTF-8"}` }
  }
}

/** The fields of a spec whose job is done, with or without a failure. */
const settled = (spec: OpenAPISpec, at: Date): OpenAPISpec => ({
  ...spec,
  processingState: "complete",
  lastProcessedAt: at,
  updatedAt: at,
  claim: undefined,
  leasedUntil: undefined
})

/**
 * OpenAPI specs (conventions-2.md §5): stored per organization under a slug. A text is processed
 * within the request; a URL is queued, and the worker (`processNext`, run by the server) fetches
 * and processes it. A content whose hash differs from the last version's becomes a new version.
 */
export class OpenAPISpecs extends Effect.Service<OpenAPISpecs>()("@octavo/domain/OpenAPISpecs", {
  effect: Effect.gen(function*() {
    const specs = yield* OpenAPISpecRepository
    const versions = yield* OpenAPISpecVersionRepository
    const fetcher = yield* WebFetcher
    const guard = yield* FetchGuard
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const work = yield* HeavyWork
    const access = yield* makeAccess
    // One pending wake-up is enough: the worker takes every job there is each time it wakes.
    const submissions = yield* Queue.sliding<void>(1)

    const member = (organizationId: OrganizationId, need: "read" | "write", action: string) =>
      Effect.tap(Effect.map(access(organizationId), (a) => a.member), (m) => requireSpecRole(m, need, action))

    const view = (m: Member) => (spec: OpenAPISpec): SpecView => ({
      spec,
      permissions: specPermissions(m)
    })

    const isVersionId = Schema.is(OpenAPISpecVersionId)

    const notFound = (slug: string) => new NotFound({ entity: "OpenAPI spec", id: slug })

    const find = (organizationId: OrganizationId, slug: string) =>
      Effect.flatMap(
        specs.findBySlug(organizationId, slug),
        Option.match({
          onNone: () => Effect.fail(notFound(slug)),
          onSome: Effect.succeed
        })
      )

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

    const wakeIfQueued = (spec: OpenAPISpec) => spec.processingState === "pending" ? Queue.offer(submissions, undefined) : Effect.void

    // Worker --------------------------------------------------------------------------------

    const fetchAndProcess = (url: string): Effect.Effect<Outcome> =>
      fetcher.fetch(url, { maxBytes: MAX_SPEC_BYTES, timeoutMs: SPEC_FETCH_TIMEOUT_MS }).pipe(
        Effect.flatMap((answer): Effect.Effect<Outcome> => {
          if (answer.status < 200 || answer.status > 299) {
            return Effect.succeed(failure("FETCH_ERROR", `${url}: the server answered with status ${answer.status}`))
          }
          const text = decodeText(answer.body, answer.charset)
          if (typeof text !== "string") return Effect.succeed(failure("PARSE_ERROR", text.problem))
          if (text === "") return Effect.succeed(failure("PARSE_ERROR", "the answer is empty"))
          const unstorable = unstorableText(text)
          if (unstorable !== undefined) return Effect.succeed(failure("PARSE_ERROR", `the text ${unstorable}`))
          return work.run(processSpecTask, text).pipe(
            Effect.flatMap((processed): Effect.Effect<Outcome> =>
              processed.ok
                ? Effect.map(secrets.hashToken(text), (hash): Outcome => ({ ok: true, content: { text, format: processed.format, hash } }))
                : Effect.succeed({ ok: false, code: "PARSE_ERROR", errors: processed.errors, count: processed.count })
            ),
            Effect.catchTag("Unreadable", ({ rule }) => Effect.succeed(failure("PARSE_ERROR", `the document ${rule}`)))
          )
        }),
        Effect.catchTag(
          "FetchFailed",
          (failed) => Effect.succeed(failure(failed.timedOut === true ? "FETCH_TIMEOUT" : "FETCH_ERROR", `${url}: ${failed.reason}`))
        )
      )

    /** Records how a job ended, unless the claim was lost meanwhile (a newer submission, a deletion, or a lease taken over). */
    const record = (spec: OpenAPISpec, claim: string, outcome: Outcome) =>
      uow.transaction(Effect.gen(function*() {
        const held = yield* specs.lockClaimed(spec.id, claim)
        if (Option.isNone(held)) return false
        const at = yield* now
        if (outcome.ok) yield* recordContent(held.value, outcome.content, at, held.value.sourceURL)
        else {
          yield* specs.update({
            ...settled(held.value, at),
            lastProcessErrorCode: outcome.code,
            lastProcessedErrors: outcome.errors,
            lastProcessedErrorCount: outcome.count
          })
        }
        return true
      }))

    /** The worker's use case: takes one job (a URL spec to fetch), processes it and records the outcome; false when none waits. */
    const processNext: Effect.Effect<boolean> = Effect.gen(function*() {
      const claim = yield* secrets.newId
      const at = yield* now
      const job = yield* uow.transaction(specs.claimJob(claim, at, new Date(at.getTime() + SPEC_JOB_LEASE_MS)))
      if (Option.isNone(job)) return false
      const url = job.value.sourceURL
      const outcome = url === undefined ? failure("FETCH_ERROR", "the spec has no URL to fetch") : yield* fetchAndProcess(url)
      yield* record(job.value, claim, outcome)
      return true
    })

    return {
      list: (organizationId: OrganizationId, page: PageRequest) =>
        Effect.gen(function*() {
          const m = yield* member(organizationId, "read", "read OpenAPI specs")
          return mapPage(yield* specs.list(organizationId, page), view(m))
        }),

      get: (organizationId: OrganizationId, slug: string) =>
        Effect.gen(function*() {
          const m = yield* member(organizationId, "read", "read OpenAPI specs")
          return view(m)(yield* find(organizationId, slug))
        }),

      /** A new spec under a slug not taken (409 otherwise). */
      create: (organizationId: OrganizationId, input: CreateSpecInput) =>
        Effect.gen(function*() {
          const m = yield* member(organizationId, "write", "create OpenAPI specs")
          const valid = yield* validate(CreateSpecInput)(input)
          const prepared = yield* prepare(valid.source)
          const spec = yield* uow.transaction(insert(organizationId, valid.slug, prepared))
          yield* wakeIfQueued(spec)
          return view(m)(spec)
        }),

      /** Replaces the source of the spec under the slug, or creates it (`created`). The same URL again fetches again. */
      put: (organizationId: OrganizationId, slug: string, input: PutSpecInput) =>
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
          yield* wakeIfQueued(spec)
          return { view: view(m)(spec), created }
        }),

      remove: (organizationId: OrganizationId, slug: string) =>
        Effect.gen(function*() {
          yield* member(organizationId, "write", "delete OpenAPI specs")
          const spec = yield* find(organizationId, slug)
          yield* specs.remove(spec.id)
        }),

      listVersions: (organizationId: OrganizationId, slug: string, page: PageRequest) =>
        Effect.gen(function*() {
          yield* member(organizationId, "read", "read OpenAPI specs")
          const spec = yield* find(organizationId, slug)
          return mapPage(yield* versions.list(spec.id, page), (version): VersionView => ({ spec, version }))
        }),

      latestVersion: (organizationId: OrganizationId, slug: string) =>
        Effect.gen(function*() {
          yield* member(organizationId, "read", "read OpenAPI specs")
          const spec = yield* find(organizationId, slug)
          const version = spec.lastVersion === undefined ? Option.none() : yield* versions.find(spec.id, spec.lastVersion)
          if (Option.isNone(version)) return yield* new NotFound({ entity: "version of the OpenAPI spec", id: slug })
          return { spec, version: version.value } satisfies VersionView
        }),

      version: (organizationId: OrganizationId, slug: string, versionId: string) =>
        Effect.gen(function*() {
          yield* member(organizationId, "read", "read OpenAPI specs")
          const spec = yield* find(organizationId, slug)
          const version = isVersionId(versionId) ? yield* versions.find(spec.id, versionId) : Option.none()
          if (Option.isNone(version)) return yield* new NotFound({ entity: "OpenAPI spec version", id: versionId })
          return { spec, version: version.value } satisfies VersionView
        }),

      /** The latest version's text exactly as it was given or fetched, and its format. */
      latestContent: (organizationId: OrganizationId, slug: string) =>
        Effect.gen(function*() {
          yield* member(organizationId, "read", "read OpenAPI specs")
          const spec = yield* find(organizationId, slug)
          const missing = new NotFound({ entity: "version of the OpenAPI spec", id: slug })
          if (spec.lastVersion === undefined) return yield* missing
          const version = yield* versions.find(spec.id, spec.lastVersion)
          const text = yield* versions.text(spec.lastVersion)
          if (Option.isNone(version) || Option.isNone(text)) return yield* missing
          return { text: text.value, format: version.value.format }
        }),

      processNext,

      /** Takes jobs until none waits; answers how many it took. */
      processPending: Effect.gen(function*() {
        let taken = 0
        while (yield* processNext) taken++
        return taken
      }),

      /** Waits until a URL spec is submitted on this server (a wake-up for the worker). */
      submitted: Queue.take(submissions)
    }
  })
}) {}
