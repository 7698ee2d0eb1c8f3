import { HttpApiSchema } from "@effect/platform"
import type { DomainError } from "@octavo/domain"
import { Schema } from "effect"

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
export const InternalError = errorSchema(500, "Something failed on the server; the cause is in its log")

export interface ApiErrorBody<Code extends number> {
  readonly error: { readonly code: Code; readonly message: string }
}

export const apiError = <Code extends number>(code: Code, message: string): ApiErrorBody<Code> => ({
  error: { code, message }
})

type ErrorCode = 400 | 401 | 403 | 404 | 409 | 412
export type ApiError = { [C in ErrorCode]: ApiErrorBody<C> }[ErrorCode]

/** The one place where domain errors become HTTP statuses. */
export const toApiError = (error: DomainError): ApiError => {
  switch (error._tag) {
    case "InvalidInput":
      return apiError(400, error.message)
    case "Unauthenticated":
      return apiError(401, error.message)
    case "Forbidden":
      return apiError(403, error.message)
    case "NotFound":
      return apiError(404, error.message)
    case "Conflict":
      return apiError(409, error.message)
    case "PreconditionFailed":
      return apiError(412, error.message)
  }
}
