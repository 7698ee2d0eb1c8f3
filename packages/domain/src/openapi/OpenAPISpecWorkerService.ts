import { Effect, Option, Queue } from "effect"
import { unstorableText } from "../shared/Limits.js"
import { HeavyWork } from "../shared/HeavyWork.js"
import { Secrets } from "../shared/Secrets.js"
import { now } from "../shared/Time.js"
import { UnitOfWork } from "../shared/UnitOfWork.js"
import { WebFetcher } from "../shared/WebFetch.js"
import {
  MAX_SPEC_BYTES,
  type OpenAPISpec,
  type ProcessError,
  type ProcessErrorCode,
  SPEC_FETCH_TIMEOUT_MS,
  SPEC_JOB_LEASE_MS
} from "./OpenAPISpec.js"
import { type Content, makeOpenAPISpecWork, settled } from "./OpenAPISpecWork.js"
import { OpenAPISpecRepository } from "./Ports.js"
import { processSpecTask } from "./Process.js"

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

/** A fetched answer's bytes as text, exactly (a byte order mark is kept), or why they are not text. */
const decodeText = (body: Uint8Array, charset: string | undefined): string | { readonly problem: string } => {
  try {
    return new TextDecoder(charset ?? "utf-8", { fatal: true, ignoreBOM: true }).decode(body)
  } catch {
    return { problem: `the answer is not text in ${charset ?? "UTF-8"}` }
  }
}

/**
 * The worker of URL specs (conventions-2.md §5), run by the server: claims a queued spec, fetches and processes its
 * URL, and records the outcome, unless the claim was lost meanwhile. `OpenAPISpecs` wakes it when a URL is submitted.
 */
export class OpenAPISpecWorker extends Effect.Service<OpenAPISpecWorker>()("@octavo/domain/OpenAPISpecWorker", {
  effect: Effect.gen(function*() {
    const specs = yield* OpenAPISpecRepository
    const fetcher = yield* WebFetcher
    const secrets = yield* Secrets
    const uow = yield* UnitOfWork
    const work = yield* HeavyWork
    const { recordContent } = yield* makeOpenAPISpecWork
    // One pending wake-up is enough: the worker takes every job there is each time it wakes.
    const submissions = yield* Queue.sliding<void>(1)

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
      processNext,

      /** Takes jobs until none waits; answers how many it took. */
      processPending: Effect.gen(function*() {
        let taken = 0
        while (yield* processNext) taken++
        return taken
      }),

      /** Wakes the worker when a spec was queued for it. */
      wakeIfQueued: (spec: OpenAPISpec) => spec.processingState === "pending" ? Queue.offer(submissions, undefined) : Effect.void,

      /** Waits until a URL spec is submitted on this server (a wake-up for the worker). */
      submitted: Queue.take(submissions)
    }
  })
}) {}
