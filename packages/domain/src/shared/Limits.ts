import { Effect, ParseResult, Schema } from "effect"
import { InvalidInput } from "./Errors.js"

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Why a string cannot be stored as text, or undefined when it can. */
export const unstorableText = (s: string): string | undefined =>
  s.includes("\u0000")
    ? "must not contain NUL characters"
    : loneSurrogate.test(s)
    ? "must be well-formed Unicode (no lone surrogates)"
    : undefined

/**
 * Every string of an input that may reach storage: PostgreSQL refuses NUL and cannot keep a lone
 * surrogate, so both are refused up front, on every storage alike, rather than failing or changing there.
 */
export const StoredString = Schema.String.pipe(
  Schema.filter((s) => unstorableText(s) ?? true)
)

/**
 * An object of user-named keys, each a StoredString. Schema.Record would drop a key its key schema
 * refuses without a word; this refuses the object instead.
 */
export const storedKeysRecord = <A, I, R>(value: Schema.Schema<A, I, R>) =>
  Schema.Record({ key: Schema.String, value }).pipe(
    Schema.filter((record) => {
      for (const key of Object.keys(record)) {
        const problem = unstorableText(key)
        if (problem !== undefined) return { path: [key], message: `key ${problem}` }
      }
      return true
    })
  )

/** JSON of any shape whose every string, object keys included, is a StoredString (walked without recursion). */
export const StoredJson = Schema.Unknown.pipe(
  Schema.filter((json) => {
    const pending: Array<unknown> = [json]
    while (pending.length > 0) {
      const next = pending.pop()
      if (typeof next === "string") {
        const problem = unstorableText(next)
        if (problem !== undefined) return problem
      } else if (typeof next === "object" && next !== null) {
        for (const [key, value] of Object.entries(next)) pending.push(key, value)
      }
    }
    return true
  })
)

/** A string with inclusive length bounds, whose failures read "must be at most 50 characters, got 51". */
export const boundedString = (bounds: { readonly min?: number; readonly max: number }) => {
  const min = bounds.min ?? 0
  return StoredString.pipe(
    Schema.filter((s) => {
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
  StoredString.pipe(
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

export const Email = StoredString.pipe(
  Schema.filter((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) && s.length <= 254 || "must be an email address", {
    jsonSchema: { format: "email" }
  })
)

export const EmailDomain = StoredString.pipe(
  Schema.filter(
    (s) => /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(s) && s.length <= 253 || "must be a domain name such as example.com"
  )
)

export const HttpUrl = StoredString.pipe(
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
