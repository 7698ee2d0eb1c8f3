import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, JSONSchema, ParseResult, Schema } from "effect"
import {
  CustomFieldValuesPatch,
  decodeCursor,
  decodedInput,
  Email,
  encodeCursor,
  HttpUrl,
  listKey,
  SpaceId,
  StoredJson,
  StoredString,
  storedKeysRecord,
  validate
} from "../src/index.js"

const accepts = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => Either.isRight(Schema.decodeUnknownEither(schema)(input))

describe("StoredString: text every storage keeps as sent", () => {
  it("refuses NUL and lone surrogates, keeps well-formed pairs", () => {
    for (const bad of ["\u0000", "a\u0000", "\uD800", "a\uDBFFb", "\uDC00", "\uDFFFa", "\uDE00\uD83D"]) {
      expect([bad, accepts(StoredString, bad)]).toEqual([bad, false])
    }
    for (const good of ["", "plain", "\uD83D\uDE00", "é ü 中文", "\u0001\u001f"]) {
      expect([good, accepts(StoredString, good)]).toEqual([good, true])
    }
  })

  it("is the base of emails, URLs and ids", () => {
    expect(accepts(Email, "a\u0000@example.com")).toBe(false)
    expect(accepts(Email, "\uD800@example.com")).toBe(false)
    expect(accepts(Email, "a@example.com")).toBe(true)
    expect(accepts(HttpUrl, "https://example.com/\u0000")).toBe(false)
    expect(accepts(HttpUrl, "https://example.com/\uD800")).toBe(false)
    expect(accepts(SpaceId, "abc\u0000")).toBe(false)
  })

  it("checks the keys of records and every string of JSON", () => {
    const record = storedKeysRecord(Schema.Number)
    expect(accepts(record, { "a\u0000": 1 })).toBe(false)
    expect(accepts(record, { ok: 1 })).toBe(true)
    expect(accepts(StoredJson, [{ a: [{ b: "x\uD800" }] }])).toBe(false)
    expect(accepts(StoredJson, { ["k\u0000"]: 1 })).toBe(false)
    expect(accepts(StoredJson, [{ a: [{ b: "x\uD83D\uDE00" }] }, 1, null, true])).toBe(true)
  })

  it("page tokens carrying text no storage keeps are refused", () =>
    Effect.gen(function*() {
      const key = listKey("members", "string", "org")
      for (const keyset of [["a\u0000", "id"], ["a", "\uD800"]] as const) {
        const decoded = yield* Effect.either(decodeCursor(key, encodeCursor(key, keyset)))
        expect([keyset, Either.isLeft(decoded)]).toEqual([keyset, true])
      }
      expect(yield* decodeCursor(key, encodeCursor(key, ["a", "id"]))).toEqual(["a", "id"])
    }))
})

describe("custom field values by name", () => {
  it("keep __proto__ and constructor as names, as JSON.parse gives them", () => {
    const parsed: unknown = JSON.parse("{\"__proto__\":{\"value\":\"p\"},\"constructor\":{\"value\":\"c\"},\"gone\":{}}")
    const values = Schema.decodeUnknownSync(CustomFieldValuesPatch)(parsed)
    expect(Array.from(values)).toEqual([["__proto__", { value: "p" }], ["constructor", { value: "c" }], ["gone", {}]])
  })

  it("refuse a list, a bad name or an entry that is not an object", () => {
    expect(accepts(CustomFieldValuesPatch, [["a", { value: 1 }]])).toBe(false)
    expect(accepts(CustomFieldValuesPatch, { "a\u0000": { value: 1 } })).toBe(false)
    expect(accepts(CustomFieldValuesPatch, { a: 1 })).toBe(false)
    expect(accepts(CustomFieldValuesPatch, "a")).toBe(false)
  })
})

describe("records of user-named keys", () => {
  const record = storedKeysRecord(Schema.NumberFromString)

  it("keep __proto__ and constructor as own keys, decoded and encoded", () => {
    const parsed: unknown = JSON.parse("{\"__proto__\":\"1\",\"constructor\":\"2\",\"plain\":\"3\"}")
    const decoded = Schema.decodeUnknownSync(record)(parsed)
    expect(Object.entries(decoded)).toEqual([["__proto__", 1], ["constructor", 2], ["plain", 3]])
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype)
    expect(JSON.stringify(Schema.encodeSync(record)(decoded))).toBe("{\"__proto__\":\"1\",\"constructor\":\"2\",\"plain\":\"3\"}")
  })

  it("name the key of a bad value, and refuse lists", () => {
    const bad = Schema.decodeUnknownEither(record)({ good: "1", bad: "x" }, { errors: "all" })
    expect(Either.isLeft(bad) && ParseResult.ArrayFormatter.formatErrorSync(bad.left).map((issue) => issue.path)).toEqual([["bad"]])
    expect(accepts(record, ["1"])).toBe(false)
    expect(accepts(record, null)).toBe(false)
    // Validating a decoded value (as the use cases do) checks each entry against the value's type.
    expect(Either.isRight(Schema.validateEither(record)({ n: 1 }))).toBe(true)
    expect(Either.isLeft(Schema.validateEither(record)({ n: "1" }))).toBe(true)
  })
})

describe("validate and decodedInput: a payload decoded once is not walked again", () => {
  const Input = Schema.Struct({ title: StoredString.pipe(Schema.maxLength(5)) })

  it.effect("takes what decodedInput decoded as it is, and checks anything else", () =>
    Effect.gen(function*() {
      const decoded = Schema.decodeUnknownSync(decodedInput(Input))({ title: "short" })
      // The same object, unchecked: changing it after decoding shows validate did not look again.
      const changed = decoded as { title: string }
      changed.title = "far too long"
      expect(yield* validate(Input)(decoded)).toBe(decoded)
      // Decoded by the plain schema, or marked for another schema: checked.
      const plain = Schema.decodeUnknownSync(Input)({ title: "far too long".slice(0, 5) }) as { title: string }
      plain.title = "far too long"
      expect((yield* Effect.flip(validate(Input)(plain))).field).toBe("title")
      const other = Schema.decodeUnknownSync(decodedInput(Schema.Struct({ title: Schema.String })))({ title: "far too long" })
      expect((yield* Effect.flip(validate(Input)(other))).field).toBe("title")
    }))

  it("refuses what its schema refuses, and documents the schema's shape", () => {
    expect(Either.isLeft(Schema.decodeUnknownEither(decodedInput(Input))({ title: "far too long" }))).toBe(true)
    expect(JSONSchema.make(decodedInput(Input))).toEqual(JSONSchema.make(Input))
  })
})
