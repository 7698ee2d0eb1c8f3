import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Actor } from "@octavo/domain"
import { Unauthorized } from "./Errors.js"

/** Bearer authentication: every authenticated endpoint runs with the caller as the domain's Actor. */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Unauthorized,
  provides: Actor,
  security: { bearer: HttpApiSecurity.bearer }
}) {}
