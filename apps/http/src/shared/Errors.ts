import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import type * as HttpMethod from "@effect/platform/HttpMethod"
import type { DomainError } from "@octavo/domain"
import { Effect, Schema } from "effect"

/**
 * Every error answer has the same body: `{"error": {"code": <status>, "message": "..."}}`.
 * One schema per status, told apart by `code`; domain errors map onto them in `toApiError`.
 */
const errorSchema = <Code extends number>(code: Code, description: string) =>
  Schema.Struct({ error: Schema.Struct({ code: Schema.Literal(code), message: Schema.String }) }).annotations({
    ...HttpApiSchema.annotations({ status: code }),
    identifier: `Error${code}`,
    description
  })

export const BadRequest = errorSchema(400, "The input is invalid: the message names the field and the rule")
export const Unauthorized = errorSchema(401, "The bearer token is missing, malformed, unknown or revoked")
export const Forbidden = errorSchema(403, "The caller can see the object but lacks the role for this action")
export const NotFound = errorSchema(404, "The object does not exist, or the caller may not see it")
export const Conflict = errorSchema(409, "The action conflicts with the current state")
export const PreconditionFailed = errorSchema(412, "A precondition of the transition does not hold")
export const PayloadTooLarge = errorSchema(413, "The body is over the size limit")
export const TooManyRequests = errorSchema(429, "Over a rate limit: wait the seconds Retry-After names")
export const InternalError = errorSchema(500, "Something failed on the server; the cause is in its log")

export interface ApiErrorBody<Code extends number> {
  readonly error: { readonly code: Code; readonly message: string }
}

export const apiError = <Code extends number>(code: Code, message: string): ApiErrorBody<Code> => ({
  error: { code, message }
})

/** The status each domain error answers with: the one place where domain errors become statuses. */
const statusOf = {
  InvalidInput: 400,
  Unauthenticated: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PreconditionFailed: 412
} as const satisfies Record<DomainError["_tag"], number>

/** The answer of a domain error, status by status: `NotFound | Conflict` becomes `ApiErrorBody<404> | ApiErrorBody<409>`. */
export type ApiErrorOf<E extends DomainError> = E extends DomainError ? ApiErrorBody<(typeof statusOf)[E["_tag"]]> : never

export type ApiError = ApiErrorOf<DomainError>

export const toApiError = <E extends DomainError>(error: E): ApiErrorOf<E> =>
  apiError(statusOf[error._tag as DomainError["_tag"]], error.message) as ApiErrorOf<E>

/**
 * Runs a use case, turning each of its domain errors into its answer. The type keeps which
 * statuses it can answer, so a handler whose endpoint does not declare one of them does not compile.
 */
export const domain = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, ApiErrorOf<E>, R> =>
  Effect.mapError(effect, toApiError)

/** The error answers an endpoint declares; 401 comes with the authentication middleware, 413 and 500 with the API. */
const declarable = { 400: BadRequest, 403: Forbidden, 404: NotFound, 409: Conflict, 412: PreconditionFailed } as const
export type DeclarableStatus = keyof typeof declarable

/**
 * Declares the error answers of an endpoint: `.pipe(errors(400, 403, 404))`. 400 belongs to every
 * endpoint that decodes a path, query or body; the others to what its use case can fail with.
 */
export const errors =
  <const Codes extends ReadonlyArray<DeclarableStatus>>(...codes: Codes) =>
  <Name extends string, Method extends HttpMethod.HttpMethod, Path, UrlParams, Payload, Headers, Success, Error, R, RE>(
    endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>
  ): HttpApiEndpoint.HttpApiEndpoint<
    Name,
    Method,
    Path,
    UrlParams,
    Payload,
    Headers,
    Success,
    Error | ApiErrorBody<Codes[number]>,
    R,
    RE
  > =>
    codes.reduce<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>(
      (declared, code) => declared.addError(declarable[code]),
      endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
    ) as never
