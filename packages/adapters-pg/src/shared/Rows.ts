import type { SqlError } from "@effect/sql/SqlError"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Effect, flow, Option, Schema } from "effect"

/** An epoch-milliseconds bigint column: node-postgres reads bigint as a string, PGlite (and to_json) as a number. */
export const DateFromMillis = Schema.transform(Schema.Union(Schema.Number, Schema.NumberFromString), Schema.DateFromSelf, {
  strict: true,
  decode: (ms) => new Date(ms),
  encode: (date) => date.getTime()
})

/** Epoch milliseconds in a jsonb document, always a JSON number: half the decoding cost of `DateFromMillis`. */
const DateFromJsonMillis = Schema.transform(Schema.Number, Schema.DateFromSelf, {
  strict: true,
  decode: (ms) => new Date(ms),
  encode: (date) => date.getTime()
})

/** A jsonb column of `schema`: read as the driver parses it, written as JSON text (which both drivers pass as is). */
export const Jsonb = <A, I>(schema: Schema.Schema<A, I>): Schema.Schema<A, unknown> =>
  Schema.compose(
    Schema.transform(Schema.Unknown, Schema.Unknown, {
      strict: true,
      decode: (stored) => stored,
      encode: (value) => JSON.stringify(value)
    }),
    schema,
    { strict: false }
  )

/** A row as the driver gives it and as `sql.insert` / `sql.update` take it: columns by name. */
export type Columns = { readonly [column: string]: unknown }

/** A stored shape of an entity: decodes what the database holds into the domain's value, encodes it back. */
export type Stored<A> = Schema.Schema<A, Columns>

type Fields = Schema.Struct.Fields

/** Columns whose stored form is not the domain's own (a jsonb column, say), by field. */
type Codecs<F extends Fields> = { readonly [K in keyof F]?: Schema.Schema.AnyNoContext }

/** `photoURL` → `photo_url`, `isInstanceAdmin` → `is_instance_admin`. */
export const snakeCase = (field: string): string => field.replace(/([a-z0-9])([A-Z]+)/g, "$1_$2").toLowerCase()

const derive = <F extends Fields>(
  fields: F,
  codecs: Codecs<F>,
  key: (field: string) => string,
  missing: "null" | "absent",
  date: typeof DateFromMillis | typeof DateFromJsonMillis
): Stored<Schema.Struct.Type<F>> => {
  const stored: Record<string, Schema.Struct.Field> = {}
  for (const [field, declared] of Object.entries(fields)) {
    const optional = Schema.isPropertySignature(declared)
    if (optional && !("from" in declared && Schema.isSchema(declared.from))) {
      throw new Error(`stored form of ${field}: only Schema.optional(...) property signatures are derived`)
    }
    const domain = (optional ? declared.from : declared) as Schema.Schema.Any
    const codec: Schema.Schema.Any = codecs[field] ?? (domain === Schema.DateFromSelf ? date : domain)
    const signature = !optional
      ? Schema.propertySignature(codec)
      : missing === "absent"
      ? Schema.optional(codec)
      // A NULL column is an absent field, and an absent (or undefined) field writes NULL, so an update clears it.
      : Schema.requiredToOptional(Schema.NullOr(codec), Schema.UndefinedOr(Schema.typeSchema(codec)), {
        decode: Option.fromNullable,
        encode: (field) => Option.getOrUndefined(field) ?? null
      })
    stored[field] = signature.pipe(Schema.fromKey(key(field)))
  }
  // The derived struct's encoded side is keyed by computed names, which the type system cannot follow.
  return Schema.Struct(stored) as unknown as Stored<Schema.Struct.Type<F>>
}

/**
 * The row of an entity, derived from its domain schema: a snake_case column per field, epoch
 * milliseconds for dates, NULL for an absent optional field; `codecs` names the columns stored otherwise.
 */
export const rowOf = <F extends Fields>(entity: Schema.Struct<F>, codecs: Codecs<F> = {}): Stored<Schema.Struct.Type<F>> =>
  derive(entity.fields, codecs, snakeCase, "null", DateFromMillis)

/** A jsonb document of an entity: its own field names, epoch milliseconds for dates, absent fields left out. */
export const documentOf = <F extends Fields>(entity: Schema.Struct<F>, codecs: Codecs<F> = {}): Stored<Schema.Struct.Type<F>> =>
  derive(entity.fields, codecs, (field) => field, "absent", DateFromJsonMillis)

type Statement = Effect.Effect<ReadonlyArray<unknown>, SqlError>

// SqlSchema's queries, for which a SqlError or a row that does not decode is a defect.

/** The first row the statement returns, decoded. */
export const findOne = <IA, II, A, AI>(
  Request: Schema.Schema<IA, II>,
  Result: Schema.Schema<A, AI>,
  execute: (request: II) => Statement
): (request: IA) => Effect.Effect<Option.Option<A>> => flow(SqlSchema.findOne({ Request, Result, execute }), Effect.orDie)

/** Every row the statement returns, decoded. */
export const findAll = <IA, II, A, AI>(
  Request: Schema.Schema<IA, II>,
  Result: Schema.Schema<A, AI>,
  execute: (request: II) => Statement
): (request: IA) => Effect.Effect<ReadonlyArray<A>> => flow(SqlSchema.findAll({ Request, Result, execute }), Effect.orDie)

/** The one row the statement returns (an aggregate), decoded. */
export const single = <IA, II, A, AI>(
  Request: Schema.Schema<IA, II>,
  Result: Schema.Schema<A, AI>,
  execute: (request: II) => Statement
): (request: IA) => Effect.Effect<A> => flow(SqlSchema.single({ Request, Result, execute }), Effect.orDie)

/** A write of the encoded request; its SqlErrors stay failures, for `conflictOnUnique` to name. */
export const write = <IA, II>(
  Request: Schema.Schema<IA, II>,
  execute: (request: II) => Effect.Effect<unknown, SqlError>
): (request: IA) => Effect.Effect<void, SqlError> => flow(SqlSchema.void({ Request, execute }), Effect.catchTag("ParseError", Effect.die))

/** A write whose SqlErrors are defects. */
export const execute = <IA, II>(
  Request: Schema.Schema<IA, II>,
  run: (request: II) => Effect.Effect<unknown, SqlError>
): (request: IA) => Effect.Effect<void> => flow(write(Request, run), Effect.orDie)
