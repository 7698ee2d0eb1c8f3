import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import { Actor } from "@octavo/domain"
import { apiError, Unauthorized } from "./Errors.js"

/** Bearer authentication: every authenticated endpoint runs with the caller as the domain's Actor. */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Unauthorized,
  provides: Actor,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** The answer to a missing, malformed, unknown or revoked token. */
export const tokenRequired = apiError(401, "A valid bearer token is required: send Authorization: Bearer <token>")

/** The token of an `Authorization: Bearer <token>` header, if that is what it holds. */
export const bearerToken = (authorization: string | undefined): string | undefined => {
  const match = authorization === undefined ? null : /^bearer\s+(\S+)\s*$/i.exec(authorization)
  return match?.[1]
}
