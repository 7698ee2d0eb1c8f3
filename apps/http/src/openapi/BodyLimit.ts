import { MAX_SPEC_BYTES } from "@octavo/domain"
import type { BodyLimit } from "../shared/Contract.js"

/**
 * The body limit of the requests that carry a spec's text (10 MiB of UTF-8) in a JSON string. Escaping
 * (`\"`, `\\`, `\n`, `\t`) at most doubles a text; only other control characters take more (`\u0001`),
 * which no spec holds: such a body over the limit is a 413.
 */
export const MAX_SPEC_BODY_BYTES = 2 * MAX_SPEC_BYTES + 64 * 1024

/** The spec routes that take a source, with their body limit (the server's own is smaller). */
export const specBodyRoutes: ReadonlyArray<BodyLimit> = [
  { method: "POST", path: /^\/v1\/orgs\/[^/?]+\/openapi$/, maxBytes: MAX_SPEC_BODY_BYTES },
  { method: "PUT", path: /^\/v1\/orgs\/[^/?]+\/openapi\/[^/?]+$/, maxBytes: MAX_SPEC_BODY_BYTES }
]
