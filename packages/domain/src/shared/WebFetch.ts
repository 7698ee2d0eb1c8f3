import { Context, type Effect, Schema } from "effect"

/** What a fetch brought back: the final URL (after redirects), its status, type and bytes. */
export interface FetchedResource {
  readonly url: string
  readonly status: number
  /** The media type without parameters, lower-case (`text/html`); empty when the answer had none. */
  readonly contentType: string
  /** The `charset` parameter of the content type, when it had one. */
  readonly charset?: string | undefined
  readonly body: Uint8Array
}

/** The fetch was refused by the guard or failed; `reason` is a sentence a person can act on. */
export class FetchFailed extends Schema.TaggedError<FetchFailed>()("FetchFailed", {
  url: Schema.String,
  reason: Schema.String,
  /** The fetch ran out of time (rather than being refused or failing). */
  timedOut: Schema.optional(Schema.Boolean)
}) {
  override get message() {
    return `${this.url}: ${this.reason}`
  }
}

/**
 * Outbound HTTP (website imports, files inserted by URL). An adapter guards every fetch: only http and https, a timeout, at
 * most `maxBytes` of body, and no private, loopback or link-local address (at any redirect)
 * unless its configuration allows them. Any answer with a status, 404 included, succeeds.
 */
export class WebFetcher extends Context.Tag("@octavo/domain/WebFetcher")<WebFetcher, {
  /** `timeoutMs` shortens the fetcher's own time limit for this fetch; it never lengthens it. */
  readonly fetch: (
    url: string,
    options: { readonly maxBytes: number; readonly timeoutMs?: number | undefined }
  ) => Effect.Effect<FetchedResource, FetchFailed>
}>() {}

/**
 * The fetcher's guard asked ahead of a fetch, so that a URL queued for later is refused at once: the
 * scheme, and every address of the host, as a fetch would check them (redirects are checked when fetched).
 */
export class FetchGuard extends Context.Tag("@octavo/domain/FetchGuard")<FetchGuard, {
  readonly check: (url: string) => Effect.Effect<void, FetchFailed>
}>() {}
