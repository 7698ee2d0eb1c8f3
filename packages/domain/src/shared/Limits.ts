import { Effect, Either, JSONSchema, ParseResult, Schema, type SchemaAST } from "effect"
import { InvalidInput } from "./Errors.js"

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

// Any surrogate at all: most text has none, and one scan tells before the lookarounds run.
const surrogate = /[\uD800-\uDFFF]/

/** Why a string cannot be stored as text, or undefined when it can. */
export const unstorableText = (s: string): string | undefined =>
  s.includes("\u0000")
    ? "must not contain NUL characters"
    : surrogate.test(s) && loneSurrogate.test(s)
    ? "must be well-formed Unicode (no lone surrogates)"
    : undefined

/**
 * Every string of an input that may reach storage: PostgreSQL refuses NUL and cannot keep a lone
 * surrogate, so both are refused up front, on every storage alike, rather than failing or changing there.
 */
export const StoredString = Schema.String.pipe(
  Schema.filter((s) => unstorableText(s) ?? true)
)

/** A record's JSON Schema, without the `$schema` line a whole document carries. */
const recordJsonSchema = <A, I>(record: Schema.Schema<A, I>): object => {
  const { $schema: _, ...schema } = JSONSchema.make(Schema.encodedSchema(record))
  return schema
}

/** Sets an own, enumerable data property: `__proto__` and `constructor` are names like any other, not the prototype. */
const defineOwn = (target: Record<string, unknown>, key: string, value: unknown) => {
  // Only `__proto__` is special to assignment on a plain object; every other name is set the quick way.
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}

/**
 * An object of user-named keys, each a StoredString, read by its own keys. Schema.Record would drop
 * a key its key schema refuses without a word (this refuses the object instead), and rebuilds the
 * object by assignment, where a key named `__proto__` sets the prototype and its value is lost.
 */
export const storedKeysRecord = <A, I>(value: Schema.Schema<A, I, never>) => {
  const record = Schema.Record({ key: Schema.String, value })
  /** Each entry through `step`, keyed by name in the issue's path; the object rebuilt with own properties. */
  const entries = (
    object: unknown,
    step: (entry: unknown) => Either.Either<unknown, ParseResult.ParseIssue>,
    ast: SchemaAST.AST,
    options: SchemaAST.ParseOptions
  ): Either.Either<Record<string, unknown>, ParseResult.ParseIssue> => {
    if (typeof object !== "object" || object === null || Array.isArray(object)) {
      return Either.left(new ParseResult.Type(ast, object, "must be an object of named values"))
    }
    const out: Record<string, unknown> = {}
    const issues: Array<ParseResult.ParseIssue> = []
    for (const key of Object.keys(object)) {
      const entry = (object as Record<string, unknown>)[key]
      const problem = unstorableText(key)
      const result = problem === undefined ? step(entry) : Either.left(new ParseResult.Type(ast, key, `key ${problem}`))
      if (Either.isRight(result)) defineOwn(out, key, result.right)
      else {
        issues.push(new ParseResult.Pointer(key, object, result.left))
        if (options.errors !== "all") break
      }
    }
    const [first, ...more] = issues
    return first === undefined ? Either.right(out) : Either.left(new ParseResult.Composite(ast, object, [first, ...more]))
  }
  const decodeValue = ParseResult.decodeUnknownEither(value)
  const encodeValue = ParseResult.encodeUnknownEither(value)
  // The decoded side checks each value against the value's own type, so `Schema.validate` sees every rule.
  const checkValue = ParseResult.decodeUnknownEither(Schema.typeSchema(value))
  const checked = (input: unknown, options: SchemaAST.ParseOptions, ast: SchemaAST.AST) =>
    entries(input, (entry) => checkValue(entry, options), ast, options) as Either.Either<
      { readonly [key: string]: A },
      ParseResult.ParseIssue
    >
  return Schema.transformOrFail(
    // The document shows the record it takes (a Record's JSON Schema); decoding reads the object's own keys.
    Schema.Object.annotations({ jsonSchema: recordJsonSchema(record) }),
    Schema.declare([], { decode: () => checked, encode: () => checked }),
    {
      strict: false,
      decode: (object, options, ast) => entries(object, (entry) => decodeValue(entry, options), ast, options),
      encode: (object, options, ast) => entries(object, (entry) => encodeValue(entry, options), ast, options)
    }
  )
}

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

/** Objects that `schema` has just decoded, by the schema: `validate` with the same schema takes them as they are. */
const decodedBy = new WeakMap<object, Schema.Schema.Any>()

/**
 * `schema`, marking what it decodes as valid under it, so that a use case's `validate` does not walk
 * it a second time: for an HTTP payload, decoded by the endpoint's schema and handed to the use case
 * that validates it. Its JSON Schema is `schema`'s.
 */
export const decodedInput = <A, I>(schema: Schema.Schema<A, I, never>): Schema.Schema<A, I, never> =>
  Schema.transform(schema, Schema.declare((_: unknown): _ is A => true), {
    strict: true,
    decode: (value) => {
      if (typeof value === "object" && value !== null) decodedBy.set(value, schema)
      return value
    },
    encode: (value) => value
  })

/** Validates a use case's input with its schema so that embedders get the same limits as HTTP callers. */
export const validate = <A, I>(schema: Schema.Schema<A, I, never>) => (input: A): Effect.Effect<A, InvalidInput> =>
  typeof input === "object" && input !== null && decodedBy.get(input) === schema
    ? Effect.succeed(input)
    : Schema.validate(schema, { errors: "first" })(input).pipe(
      Effect.mapError((error) => {
        const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
        return new InvalidInput({
          field: issue?.path.map(String).join(".") ?? "",
          rule: issue?.message ?? "is invalid"
        })
      })
    )

const utf8 = new TextEncoder()

/**
 * The UTF-8 length of a string (a surrogate pair is one code point of four bytes). A long text is measured by the
 * platform's encoder, natively: a loop over ten million characters held the event loop.
 */
export const utf8Length = (s: string): number => {
  if (s.length > 64 * 1024) return utf8.encode(s).byteLength
  let bytes = 0
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < s.length) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}
