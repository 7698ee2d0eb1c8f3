import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import {
  type AdaptiveJsonSchema,
  adaptiveSchemaProblem,
  defaultAdaptiveSchema,
  deterministicClaims
} from "../src/sites/AdaptiveSchema.js"

const draft07 = "http://json-schema.org/draft-07/schema#"

const schemaWith = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  additionalProperties: false,
  ...extra
})

const flag = (description = "a flag") => ({ type: "boolean", description })

const objectOf = (properties: Record<string, unknown>) => ({
  type: "object",
  description: "a group",
  properties,
  additionalProperties: false
})

/** Properties nested `depth` levels deep: a/a/…/leaf, where the last level is a boolean named `leaf`. */
const nested = (depth: number): Record<string, unknown> => {
  let properties: Record<string, unknown> = { leaf: flag() }
  for (let level = 1; level < depth; level++) properties = { a: objectOf(properties) }
  return properties
}

const manyFlags = (count: number): Record<string, unknown> => Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, flag()]))

const rich = {
  $schema: draft07,
  $id: "https://docs.example.com/adaptive.json",
  type: "object",
  properties: {
    beta: { type: "boolean", description: "Opted into beta features" },
    plan: { type: "string", description: "Billing plan", enum: ["free", "pro", "enterprise"] },
    name: { type: "string", description: "Display name" },
    seats: { type: "number", description: "Seats bought" },
    roles: { type: "array", description: "Roles", items: { type: "string", description: "A role", enum: ["admin", "member"] } },
    scores: { type: "array", description: "Scores", items: { type: "number", description: "One score" } },
    toggles: { type: "array", description: "Toggles", items: { type: "boolean", description: "A toggle" } },
    account: objectOf({
      region: { type: "string", description: "Region", enum: ["eu", "us"] },
      billing: objectOf({ details: objectOf({ vat: flag("VAT registered") }) })
    }),
    unsigned: {
      type: "object",
      description: "Unsigned claims of the site visitor.",
      properties: {
        theme: { type: "string", description: "Theme", enum: ["dark", "light"] },
        tz: { type: "string", description: "Time zone" }
      },
      additionalProperties: false
    }
  },
  additionalProperties: false
} as const

describe("adaptive schema", () => {
  it("accepts the default schema and a rich one with every kind of property", () => {
    expect(defaultAdaptiveSchema).toStrictEqual({ type: "object", properties: {}, additionalProperties: false })
    expect(adaptiveSchemaProblem(defaultAdaptiveSchema)).toBeUndefined()
    expect(adaptiveSchemaProblem(rich)).toBeUndefined()
    // The same schema as it arrives over the wire.
    expect(adaptiveSchemaProblem(JSON.parse(JSON.stringify(rich)))).toBeUndefined()
  })

  it("refuses what is not an object at the root, and unknown or missing top-level keys", () => {
    expect(adaptiveSchemaProblem([])).toStrictEqual({ pointer: "", rule: "the schema must be a JSON object" })
    expect(adaptiveSchemaProblem(null)).toStrictEqual({ pointer: "", rule: "the schema must be a JSON object" })
    expect(adaptiveSchemaProblem(undefined)).toStrictEqual({ pointer: "", rule: "the schema must be a JSON object" })
    expect(adaptiveSchemaProblem(schemaWith({}, { required: [] }))).toStrictEqual({
      pointer: "/required",
      rule: "is not allowed"
    })
    expect(adaptiveSchemaProblem(schemaWith({}, { "a/b~c": 1 }))).toStrictEqual({
      pointer: "/a~1b~0c",
      rule: "is not allowed"
    })
    expect(adaptiveSchemaProblem({ properties: {}, additionalProperties: false })).toStrictEqual({
      pointer: "/type",
      rule: "is required"
    })
    expect(adaptiveSchemaProblem({ type: "object", additionalProperties: false })).toStrictEqual({
      pointer: "/properties",
      rule: "is required"
    })
    expect(adaptiveSchemaProblem({ type: "object", properties: {} })).toStrictEqual({
      pointer: "/additionalProperties",
      rule: "is required"
    })
    expect(adaptiveSchemaProblem(schemaWith({}, { type: "array" }))).toStrictEqual({
      pointer: "/type",
      rule: "must be \"object\""
    })
    expect(adaptiveSchemaProblem(schemaWith({}, { additionalProperties: true }))).toStrictEqual({
      pointer: "/additionalProperties",
      rule: "must be false"
    })
    expect(adaptiveSchemaProblem(schemaWith({}, { properties: [] }))).toStrictEqual({
      pointer: "/properties",
      rule: "must be an object"
    })
  })

  it("accepts only draft-07 as $schema and an absolute URI of at most 2048 characters as $id", () => {
    expect(adaptiveSchemaProblem(schemaWith({}, { $schema: draft07 }))).toBeUndefined()
    expect(adaptiveSchemaProblem(schemaWith({}, { $schema: "http://json-schema.org/draft-04/schema#" })))
      .toStrictEqual({ pointer: "/$schema", rule: `must be "${draft07}"` })
    const base = "https://example.com/"
    const id2048 = base + "x".repeat(2048 - base.length)
    expect(adaptiveSchemaProblem(schemaWith({}, { $id: id2048 }))).toBeUndefined()
    expect(adaptiveSchemaProblem(schemaWith({}, { $id: id2048 + "x" }))).toStrictEqual({
      pointer: "/$id",
      rule: "must be at most 2048 characters, got 2049"
    })
    expect(adaptiveSchemaProblem(schemaWith({}, { $id: "not a uri" }))).toStrictEqual({
      pointer: "/$id",
      rule: "must be an absolute URI"
    })
    expect(adaptiveSchemaProblem(schemaWith({}, { $id: 7 }))).toStrictEqual({ pointer: "/$id", rule: "must be a string" })
  })

  it("allows 100 properties in total over every level, not 101", () => {
    expect(adaptiveSchemaProblem(schemaWith(manyFlags(100)))).toBeUndefined()
    expect(adaptiveSchemaProblem(schemaWith(manyFlags(101)))).toStrictEqual({
      pointer: "",
      rule: "must have at most 100 properties, got 101"
    })
    // 98 flags, one group and its one flag: 100; nested properties count too.
    expect(adaptiveSchemaProblem(schemaWith({ ...manyFlags(98), g: objectOf({ x: flag() }) }))).toBeUndefined()
    expect(adaptiveSchemaProblem(schemaWith({ ...manyFlags(98), g: objectOf({ x: flag(), y: flag() }) })))
      .toStrictEqual({ pointer: "", rule: "must have at most 100 properties, got 101" })
  })

  it("allows nesting 4 deep, not 5", () => {
    expect(adaptiveSchemaProblem(schemaWith(nested(4)))).toBeUndefined()
    expect(adaptiveSchemaProblem(schemaWith(nested(5)))).toStrictEqual({
      pointer: "/properties/a/properties/a/properties/a/properties/a/properties/leaf",
      rule: "must be nested at most 4 deep, is 5"
    })
    // An object at depth 4 may exist as long as it is empty.
    expect(adaptiveSchemaProblem(schemaWith({ a: objectOf({ a: objectOf({ a: objectOf({ a: objectOf({}) }) }) }) })))
      .toBeUndefined()
  })

  it("requires a description of at most 512 characters on every property", () => {
    expect(adaptiveSchemaProblem(schemaWith({ beta: flag("d".repeat(512)) }))).toBeUndefined()
    expect(adaptiveSchemaProblem(schemaWith({ beta: flag("d".repeat(513)) }))).toStrictEqual({
      pointer: "/properties/beta/description",
      rule: "must be at most 512 characters, got 513"
    })
    expect(adaptiveSchemaProblem(schemaWith({ g: objectOf({ beta: { type: "boolean" } }) }))).toStrictEqual({
      pointer: "/properties/g/properties/beta/description",
      rule: "is required"
    })
    expect(adaptiveSchemaProblem(schemaWith({ beta: { type: "boolean", description: 1 } }))).toStrictEqual({
      pointer: "/properties/beta/description",
      rule: "must be a string"
    })
  })

  it("needs a description on array items, as GitBook does, and checks it", () => {
    expect(adaptiveSchemaProblem(schemaWith({ xs: { type: "array", description: "xs", items: { type: "number" } } })))
      .toStrictEqual({ pointer: "/properties/xs/items/description", rule: "is required" })
    expect(adaptiveSchemaProblem(schemaWith({ xs: { type: "array", description: "xs", items: { type: "number", description: "x" } } })))
      .toBeUndefined()
    expect(
      adaptiveSchemaProblem(
        schemaWith({ xs: { type: "array", description: "xs", items: { type: "number", description: "d".repeat(513) } } })
      )
    ).toStrictEqual({ pointer: "/properties/xs/items/description", rule: "must be at most 512 characters, got 513" })
    expect(
      adaptiveSchemaProblem(schemaWith({ xs: { type: "array", description: "xs", items: { type: "array", items: {} } } }))
    ).toStrictEqual({ pointer: "/properties/xs/items/type", rule: "must be one of \"boolean\", \"string\", \"number\"" })
    expect(adaptiveSchemaProblem(schemaWith({ xs: { type: "array", description: "xs" } }))).toStrictEqual({
      pointer: "/properties/xs/items",
      rule: "is required"
    })
  })

  it("allows 1-100 unique enum items of at most 256 characters", () => {
    const plan = (values: unknown) => schemaWith({ plan: { type: "string", description: "Plan", enum: values } })
    const distinct = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`)
    expect(adaptiveSchemaProblem(plan(distinct(100)))).toBeUndefined()
    expect(adaptiveSchemaProblem(plan(distinct(101)))).toStrictEqual({
      pointer: "/properties/plan/enum",
      rule: "must have at most 100 items, got 101"
    })
    expect(adaptiveSchemaProblem(plan([]))).toStrictEqual({ pointer: "/properties/plan/enum", rule: "must have at least 1 item" })
    expect(adaptiveSchemaProblem(plan(["free", "pro", "team", "pro"]))).toStrictEqual({
      pointer: "/properties/plan/enum/3",
      rule: "must be unique"
    })
    expect(adaptiveSchemaProblem(plan(["s".repeat(256)]))).toBeUndefined()
    expect(adaptiveSchemaProblem(plan(["ok", "s".repeat(257)]))).toStrictEqual({
      pointer: "/properties/plan/enum/1",
      rule: "must be at most 256 characters, got 257"
    })
    expect(adaptiveSchemaProblem(plan(["ok", 3]))).toStrictEqual({ pointer: "/properties/plan/enum/1", rule: "must be a string" })
    expect(adaptiveSchemaProblem(plan("pro"))).toStrictEqual({
      pointer: "/properties/plan/enum",
      rule: "must be an array of strings"
    })
  })

  it("names properties by ^[A-Za-z_]\\w{0,63}$", () => {
    const rule = "must match ^[A-Za-z_]\\w{0,63}$"
    expect(adaptiveSchemaProblem(schemaWith({ ["a".repeat(64)]: flag(), _x: flag() }))).toBeUndefined()
    expect(adaptiveSchemaProblem(schemaWith({ ["a".repeat(65)]: flag() }))).toStrictEqual({
      pointer: `/properties/${"a".repeat(65)}`,
      rule
    })
    expect(adaptiveSchemaProblem(schemaWith({ "1st": flag() }))).toStrictEqual({ pointer: "/properties/1st", rule })
    expect(adaptiveSchemaProblem(schemaWith({ g: objectOf({ "a/b": flag() }) }))).toStrictEqual({
      pointer: "/properties/g/properties/a~1b",
      rule
    })
  })

  it("refuses other keys, other types and a non-false additionalProperties inside properties", () => {
    expect(adaptiveSchemaProblem(schemaWith({ n: { type: "number", description: "n", minimum: 0 } }))).toStrictEqual({
      pointer: "/properties/n/minimum",
      rule: "is not allowed"
    })
    expect(adaptiveSchemaProblem(schemaWith({ b: { type: "boolean", description: "b", enum: [true] } }))).toStrictEqual({
      pointer: "/properties/b/enum",
      rule: "is not allowed"
    })
    expect(adaptiveSchemaProblem(schemaWith({ n: { description: "n" } }))).toStrictEqual({
      pointer: "/properties/n/type",
      rule: "is required"
    })
    expect(adaptiveSchemaProblem(schemaWith({ n: { type: "integer", description: "n" } }))).toStrictEqual({
      pointer: "/properties/n/type",
      rule: "must be one of \"boolean\", \"string\", \"number\", \"array\", \"object\""
    })
    expect(adaptiveSchemaProblem(schemaWith({ n: "number" }))).toStrictEqual({
      pointer: "/properties/n",
      rule: "must be an object"
    })
    expect(adaptiveSchemaProblem(schemaWith({ g: { ...objectOf({}), additionalProperties: true } }))).toStrictEqual({
      pointer: "/properties/g/additionalProperties",
      rule: "must be false"
    })
    expect(adaptiveSchemaProblem(schemaWith({ g: { type: "object", description: "g", properties: {} } }))).toStrictEqual({
      pointer: "/properties/g/additionalProperties",
      rule: "is required"
    })
    expect(adaptiveSchemaProblem(schemaWith({ unsigned: flag() }))).toStrictEqual({
      pointer: "/properties/unsigned/type",
      rule: "must be \"object\" (it holds the unsigned claims)"
    })
    // GitBook fixes the unsigned claims' description.
    expect(adaptiveSchemaProblem(schemaWith({ unsigned: { ...objectOf({}), description: "Mine" } }))).toStrictEqual({
      pointer: "/properties/unsigned/description",
      rule: "must be \"Unsigned claims of the site visitor.\""
    })
    // Only the top-level `unsigned` is special.
    expect(adaptiveSchemaProblem(schemaWith({ g: objectOf({ unsigned: flag() }) }))).toBeUndefined()
  })

  it("refuses strings that cannot be stored", () => {
    expect(adaptiveSchemaProblem(schemaWith({ b: flag("a\u0000b") }))).toStrictEqual({
      pointer: "/properties/b/description",
      rule: "must not contain NUL characters"
    })
    expect(adaptiveSchemaProblem(schemaWith({ p: { type: "string", description: "p", enum: ["ok", "\uD800"] } })))
      .toStrictEqual({ pointer: "/properties/p/enum/1", rule: "must be well-formed Unicode (no lone surrogates)" })
    expect(adaptiveSchemaProblem(schemaWith({}, { $id: "https://example.com/\uDC00" }))).toStrictEqual({
      pointer: "/$id",
      rule: "must be well-formed Unicode (no lone surrogates)"
    })
  })

  it("refuses more than 64 KiB of JSON before anything else", () => {
    const tooBig = { pointer: "", rule: "the schema must be at most 65536 bytes (64 KiB) as JSON" }
    const size = (json: unknown) => new TextEncoder().encode(JSON.stringify(json)).length
    // 100 properties whose descriptions are 300 "é" (600 bytes, 300 characters), then an $id that fills up to `bytes`.
    const ofSize = (bytes: number) => {
      const properties = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, flag("é".repeat(300))]))
      const base = "https://example.com/"
      const padding = bytes - size(schemaWith(properties, { $id: base }))
      expect(padding).toBeGreaterThanOrEqual(0)
      expect(padding).toBeLessThanOrEqual(2048 - base.length)
      const schema = schemaWith(properties, { $id: base + "x".repeat(padding) })
      expect(size(schema)).toBe(bytes)
      return schema
    }
    expect(adaptiveSchemaProblem(ofSize(65536))).toBeUndefined()
    expect(adaptiveSchemaProblem(ofSize(65537))).toStrictEqual(tooBig)
    // Size comes first, even before unknown keys.
    expect(adaptiveSchemaProblem({ junk: "x".repeat(70_000) })).toStrictEqual(tooBig)
  })

  it("measures size as the UTF-8 bytes of JSON.stringify, for any JSON", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: "binary", maxDepth: 4 }),
        fc.integer({ min: 65_000, max: 65_600 }),
        (json, padding) => {
          const input = { junk: [json, "x".repeat(padding)] }
          const bytes = new TextEncoder().encode(JSON.stringify(input)).length
          expect(adaptiveSchemaProblem(input)?.pointer).toBe(bytes > 65536 ? "" : "/junk")
        }
      ),
      { numRuns: 300 }
    )
  })

  it("refuses 10,000 levels of nesting without throwing", () => {
    let plain: unknown = {}
    let shaped: Record<string, unknown> = {}
    for (let i = 0; i < 10_000; i++) {
      plain = { a: plain }
      shaped = { a: objectOf(shaped) }
    }
    let arrays: unknown = []
    for (let i = 0; i < 100_000; i++) arrays = [arrays]
    // Within 64 KiB, so the walk sees it and stops at the first level.
    expect(adaptiveSchemaProblem(plain)).toStrictEqual({ pointer: "/a", rule: "is not allowed" })
    expect(adaptiveSchemaProblem(arrays)).toStrictEqual({
      pointer: "",
      rule: "the schema must be at most 65536 bytes (64 KiB) as JSON"
    })
    expect(adaptiveSchemaProblem(schemaWith(shaped))).toStrictEqual({
      pointer: "",
      rule: "the schema must be at most 65536 bytes (64 KiB) as JSON"
    })
    // Deep but within 64 KiB: refused at the fifth level.
    let small: Record<string, unknown> = {}
    for (let i = 0; i < 500; i++) {
      small = { a: { type: "object", description: "", properties: small, additionalProperties: false } }
    }
    expect(adaptiveSchemaProblem(schemaWith(small))).toStrictEqual({
      pointer: "/properties/a/properties/a/properties/a/properties/a/properties/a",
      rule: "must be nested at most 4 deep, is 5"
    })
  })

  it("never throws on any JSON, and answers a pointer and a rule or nothing", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const problem = adaptiveSchemaProblem(json)
        if (problem !== undefined) {
          expect(typeof problem.rule).toBe("string")
          expect(problem.pointer === "" || problem.pointer.startsWith("/")).toBe(true)
        }
      }),
      { numRuns: 500 }
    )
  })

  it("accepts any schema built from the allowed forms within the limits", () => {
    const name = fc.stringMatching(/^[A-Za-z_]\w{0,10}$/)
    const description = fc.string({ maxLength: 40 })
    const scalar = fc.oneof(
      fc.record({ type: fc.constant("boolean"), description }),
      fc.record({ type: fc.constant("number"), description }),
      fc.record(
        { type: fc.constant("string"), description, enum: fc.uniqueArray(fc.string({ maxLength: 20 }), { minLength: 1, maxLength: 5 }) },
        { requiredKeys: ["type", "description"] }
      )
    )
    const leaf = fc.oneof(scalar, fc.record({ type: fc.constant("array"), description, items: scalar }))
    const { property } = fc.letrec<{ property: unknown }>((tie) => ({
      property: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        leaf,
        fc.record({
          type: fc.constant("object"),
          description,
          properties: fc.dictionary(name, tie("property"), { maxKeys: 3 }),
          additionalProperties: fc.constant(false)
        })
      )
    }))
    const countAndDepth = (properties: Record<string, unknown>, depth: number): [number, number] => {
      let count = 0
      let deepest = 0
      for (const value of Object.values(properties)) {
        const v = value as { type: string; properties?: Record<string, unknown> }
        count++
        deepest = Math.max(deepest, depth)
        if (v.type === "object") {
          const [c, d] = countAndDepth(v.properties!, depth + 1)
          count += c
          deepest = Math.max(deepest, d)
        }
      }
      return [count, deepest]
    }
    fc.assert(
      fc.property(fc.dictionary(name, property, { maxKeys: 5 }), (properties) => {
        const storable = !JSON.stringify(properties).match(/\\u0000|\\ud[89a-f]/)
        const [count, depth] = countAndDepth(properties, 1)
        const hasUnsigned = Object.hasOwn(properties, "unsigned")
        fc.pre(storable && count <= 100 && depth <= 4 && !hasUnsigned)
        expect(adaptiveSchemaProblem(schemaWith(properties))).toBeUndefined()
      }),
      { numRuns: 300 }
    )
  })

  it("lists the deterministic claims in schema order", () => {
    const schema = JSON.parse(JSON.stringify(rich)) as AdaptiveJsonSchema
    expect(deterministicClaims(schema)).toStrictEqual([
      { path: ["beta"], values: [true, false] },
      { path: ["plan"], values: ["free", "pro", "enterprise"] },
      { path: ["account", "region"], values: ["eu", "us"] },
      { path: ["account", "billing", "details", "vat"], values: [true, false] },
      { path: ["unsigned", "theme"], values: ["dark", "light"] }
    ])
    expect(deterministicClaims(defaultAdaptiveSchema)).toStrictEqual([])
  })
})
