import { Effect, ParseResult, Schema } from "effect"
import { InvalidInput } from "./Errors.js"

/** A string with inclusive length bounds, whose failures read "must be at most 50 characters, got 51". */
export const boundedString = (bounds: { readonly min?: number; readonly max: number }) => {
  const min = bounds.min ?? 0
  return Schema.String.pipe(
    Schema.filter((s) => {
      // Text that PostgreSQL cannot store is refused up front, on every storage alike.
      if (s.includes("\u0000")) return "must not contain NUL characters"
      if (s.length < min) {
        return min === 1 ? "must not be empty" : `must be at least ${min} characters, got ${s.length}`
      }
      if (s.length > bounds.max) return `must be at most ${bounds.max} characters, got ${s.length}`
      return true
    }, { jsonSchema: { minLength: min, maxLength: bounds.max } })
  )
}

/** A string matching a pattern, with the pattern named in the failure. */
export const patternString = (pattern: RegExp, what: string) =>
  Schema.String.pipe(
    Schema.filter((s) => pattern.test(s) || `must be ${what} (pattern ${pattern.source})`, {
      jsonSchema: { pattern: pattern.source }
    })
  )

/** An array with inclusive count bounds. */
export const boundedArray = <A, I, R>(item: Schema.Schema<A, I, R>, bounds: { readonly min?: number; readonly max: number }) => {
  const min = bounds.min ?? 0
  return Schema.Array(item).pipe(
    Schema.filter((xs) => {
      if (xs.length < min) return `must have at least ${min} entries, got ${xs.length}`
      if (xs.length > bounds.max) return `must have at most ${bounds.max} entries, got ${xs.length}`
      return true
    }, { jsonSchema: { minItems: min, maxItems: bounds.max } })
  )
}

export const Email = Schema.String.pipe(
  Schema.filter((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) && s.length <= 254 || "must be an email address", {
    jsonSchema: { format: "email" }
  })
)

export const EmailDomain = Schema.String.pipe(
  Schema.filter(
    (s) => /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(s) && s.length <= 253 || "must be a domain name such as example.com"
  )
)

export const HttpUrl = Schema.String.pipe(
  Schema.filter((s) => (s.length <= 2048 && /^https?:\/\/[^\s]+$/.test(s)) || "must be an http or https URL of at most 2048 characters", {
    jsonSchema: { format: "uri" }
  })
)

/** Validates a use case's input with its schema so that embedders get the same limits as HTTP callers. */
export const validate = <A, I>(schema: Schema.Schema<A, I, never>) => (input: A): Effect.Effect<A, InvalidInput> =>
  Schema.validate(schema, { errors: "first" })(input).pipe(
    Effect.mapError((error) => {
      const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
      return new InvalidInput({
        field: issue?.path.map(String).join(".") ?? "",
        rule: issue?.message ?? "is invalid"
      })
    })
  )
