import { unstorableText } from "../shared/Limits.js"

// A site's adaptive schema (conventions-2 §1.4): the subset of JSON Schema draft-07 that describes
// a visitor's claims, compatible with GitBook's SiteAdaptiveJSONSchema.

/** What an array's `items` may be: described, as GB's SiteAdaptiveJSONSchemaPrimitives are. */
export type AdaptiveItems =
  | { readonly type: "boolean"; readonly description: string }
  | { readonly type: "string"; readonly description: string; readonly enum?: ReadonlyArray<string> }
  | { readonly type: "number"; readonly description: string }

/** The description GB gives the unsigned claims' object, and requires. */
export const unsignedDescription = "Unsigned claims of the site visitor."

/** One claim of the schema, tagged by `type`. */
export type AdaptiveProperty =
  | { readonly type: "boolean"; readonly description: string }
  | { readonly type: "string"; readonly description: string; readonly enum?: ReadonlyArray<string> }
  | { readonly type: "number"; readonly description: string }
  | { readonly type: "array"; readonly description: string; readonly items: AdaptiveItems }
  | {
    readonly type: "object"
    readonly description: string
    readonly properties: Readonly<Record<string, AdaptiveProperty>>
    readonly additionalProperties: false
  }

export type AdaptiveJsonSchema = {
  readonly type: "object"
  readonly properties: Readonly<Record<string, AdaptiveProperty>>
  readonly additionalProperties: false
  readonly $schema?: string
  readonly $id?: string
}

/** What GET answers before any PUT. */
export const defaultAdaptiveSchema: AdaptiveJsonSchema = { type: "object", properties: {}, additionalProperties: false }

const draft07 = "http://json-schema.org/draft-07/schema#"
const propertyName = /^[A-Za-z_]\w{0,63}$/
// An absolute URI: a scheme, then no whitespace or control characters.
const absoluteUri = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\p{Cc}]*$/u
const maxBytes = 64 * 1024
const maxProperties = 100
const maxDepth = 4
const maxDescription = 512
const maxEnumItems = 100
const maxEnumItem = 256
const maxId = 2048

type Problem = { readonly pointer: string; readonly rule: string }
type JsonObject = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

/** RFC 6901: `~` becomes `~0`, `/` becomes `~1`. */
const child = (pointer: string, key: string | number): string => `${pointer}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`

const quoted = (values: ReadonlyArray<string>) => values.map((v) => JSON.stringify(v)).join(", ")

const utf8 = new TextEncoder()

/**
 * Whether the JSON text of `json` is over maxBytes, counted without recursion (JSON.stringify overflows the
 * stack on deeply nested input) and stopping as soon as the limit is passed. Mirrors JSON.stringify's output.
 */
const sizeProblem = (json: unknown): Problem | undefined => {
  const tooBig: Problem = { pointer: "", rule: `the schema must be at most ${maxBytes} bytes (64 KiB) as JSON` }
  const omitted = (value: unknown) => value === undefined || typeof value === "function" || typeof value === "symbol"
  if (omitted(json)) return { pointer: "", rule: "the schema must be a JSON object" }
  try {
    let bytes = 0
    const pending: Array<unknown> = [json]
    while (pending.length > 0) {
      const value = pending.pop()
      if (Array.isArray(value)) {
        bytes += 2 + Math.max(0, value.length - 1)
        for (const item of value) pending.push(omitted(item) ? null : item)
      } else if (typeof value === "object" && value !== null) {
        const entries = Object.entries(value).filter(([, v]) => !omitted(v))
        bytes += 2 + Math.max(0, entries.length - 1)
        for (const [key, v] of entries) {
          bytes += utf8.encode(JSON.stringify(key)).length + 1
          pending.push(v)
        }
      } else if (typeof value === "bigint") {
        return { pointer: "", rule: "the schema must be JSON" }
      } else {
        bytes += utf8.encode(JSON.stringify(value)).length
      }
      if (bytes > maxBytes) return tooBig
    }
    return undefined
  } catch {
    return { pointer: "", rule: "the schema must be JSON" }
  }
}

/** The first key of `object` outside `allowed`, as a problem. */
const unknownKey = (object: JsonObject, allowed: ReadonlyArray<string>, pointer: string): Problem | undefined => {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) return { pointer: child(pointer, key), rule: "is not allowed" }
  }
  return undefined
}

const missingKey = (object: JsonObject, required: ReadonlyArray<string>, pointer: string): Problem | undefined => {
  for (const key of required) {
    if (!Object.hasOwn(object, key)) return { pointer: child(pointer, key), rule: "is required" }
  }
  return undefined
}

const textProblem = (value: unknown, max: number, pointer: string): Problem | undefined => {
  if (typeof value !== "string") return { pointer, rule: "must be a string" }
  const unstorable = unstorableText(value)
  if (unstorable !== undefined) return { pointer, rule: unstorable }
  if (value.length > max) return { pointer, rule: `must be at most ${max} characters, got ${value.length}` }
  return undefined
}

const enumProblem = (value: unknown, pointer: string): Problem | undefined => {
  if (!Array.isArray(value)) return { pointer, rule: "must be an array of strings" }
  if (value.length === 0) return { pointer, rule: "must have at least 1 item" }
  if (value.length > maxEnumItems) {
    return { pointer, rule: `must have at most ${maxEnumItems} items, got ${value.length}` }
  }
  const seen = new Set<string>()
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i]
    const problem = textProblem(item, maxEnumItem, child(pointer, i))
    if (problem !== undefined) return problem
    if (seen.has(item as string)) return { pointer: child(pointer, i), rule: "must be unique" }
    seen.add(item as string)
  }
  return undefined
}

const scalarTypes = ["boolean", "string", "number"] as const
const propertyTypes = [...scalarTypes, "array", "object"] as const
const keysByType: Readonly<Record<(typeof propertyTypes)[number], ReadonlyArray<string>>> = {
  boolean: ["type", "description"],
  string: ["type", "description", "enum"],
  number: ["type", "description"],
  array: ["type", "description", "items"],
  object: ["type", "description", "properties", "additionalProperties"]
}

/** Running count of properties, shared by the whole walk. */
type Count = { total: number }

/**
 * Checks the shape `{type, ..., keys}` of a property (or of `items` when `isItems`), and descends into an
 * object's properties; `depth` is the property's own depth (top-level properties are 1), never above maxDepth.
 */
const propertyProblem = (
  value: unknown,
  pointer: string,
  depth: number,
  count: Count,
  isItems: boolean
): Problem | undefined => {
  if (!isObject(value)) return { pointer, rule: "must be an object" }
  if (!Object.hasOwn(value, "type")) return { pointer: child(pointer, "type"), rule: "is required" }
  const allowedTypes: ReadonlyArray<string> = isItems ? scalarTypes : propertyTypes
  const type = value["type"]
  if (typeof type !== "string" || !allowedTypes.includes(type)) {
    return { pointer: child(pointer, "type"), rule: `must be one of ${quoted(allowedTypes)}` }
  }
  const kind = type as (typeof propertyTypes)[number]
  const unknown = unknownKey(value, keysByType[kind], pointer)
  if (unknown !== undefined) return unknown
  const required = [
    "description",
    ...(kind === "array" ? ["items"] : kind === "object" ? ["properties", "additionalProperties"] : [])
  ]
  const missing = missingKey(value, required, pointer)
  if (missing !== undefined) return missing
  if (Object.hasOwn(value, "description")) {
    const problem = textProblem(value["description"], maxDescription, child(pointer, "description"))
    if (problem !== undefined) return problem
  }
  switch (kind) {
    case "string":
      return Object.hasOwn(value, "enum") ? enumProblem(value["enum"], child(pointer, "enum")) : undefined
    case "array":
      return propertyProblem(value["items"], child(pointer, "items"), depth, count, true)
    case "object":
      if (value["additionalProperties"] !== false) {
        return { pointer: child(pointer, "additionalProperties"), rule: "must be false" }
      }
      return propertiesProblem(value["properties"], child(pointer, "properties"), depth + 1, count)
    default:
      return undefined
  }
}

/** Checks a `properties` object whose entries sit at `depth`, refusing before it descends past maxDepth. */
const propertiesProblem = (value: unknown, pointer: string, depth: number, count: Count): Problem | undefined => {
  if (!isObject(value)) return { pointer, rule: "must be an object" }
  for (const name of Object.keys(value)) {
    const at = child(pointer, name)
    if (depth > maxDepth) return { pointer: at, rule: `must be nested at most ${maxDepth} deep, is ${depth}` }
    if (!propertyName.test(name)) return { pointer: at, rule: `must match ${propertyName.source}` }
    count.total++
    const problem = propertyProblem(value[name], at, depth, count, false)
    if (problem !== undefined) return problem
  }
  return undefined
}

const rootProblem = (json: unknown): Problem | undefined => {
  if (!isObject(json)) return { pointer: "", rule: "the schema must be a JSON object" }
  const unknown = unknownKey(json, ["type", "properties", "additionalProperties", "$schema", "$id"], "")
  if (unknown !== undefined) return unknown
  const missing = missingKey(json, ["type", "properties", "additionalProperties"], "")
  if (missing !== undefined) return missing
  if (json["type"] !== "object") return { pointer: "/type", rule: "must be \"object\"" }
  if (json["additionalProperties"] !== false) return { pointer: "/additionalProperties", rule: "must be false" }
  if (Object.hasOwn(json, "$schema") && json["$schema"] !== draft07) {
    return { pointer: "/$schema", rule: `must be ${JSON.stringify(draft07)}` }
  }
  if (Object.hasOwn(json, "$id")) {
    const id = json["$id"]
    const problem = textProblem(id, maxId, "/$id")
    if (problem !== undefined) return problem
    if (!absoluteUri.test(id as string)) return { pointer: "/$id", rule: "must be an absolute URI" }
  }
  const properties = json["properties"]
  // `unsigned` holds the unsigned claims, so it must be an object property like GB's.
  if (isObject(properties) && Object.hasOwn(properties, "unsigned")) {
    const unsigned = properties["unsigned"]
    if (isObject(unsigned) && Object.hasOwn(unsigned, "type") && unsigned["type"] !== "object") {
      return { pointer: "/properties/unsigned/type", rule: "must be \"object\" (it holds the unsigned claims)" }
    }
    // GB fixes its description, so that its clients read back what they know.
    if (isObject(unsigned) && Object.hasOwn(unsigned, "description") && unsigned["description"] !== unsignedDescription) {
      return { pointer: "/properties/unsigned/description", rule: `must be "${unsignedDescription}"` }
    }
  }
  const count: Count = { total: 0 }
  const problem = propertiesProblem(properties, "/properties", 1, count)
  if (problem !== undefined) return problem
  if (count.total > maxProperties) {
    return { pointer: "", rule: `must have at most ${maxProperties} properties, got ${count.total}` }
  }
  return undefined
}

/** A closed object of JSON Schema: what `adaptiveSchemaProblem` takes, every other key refused ("is not allowed"). */
const closedObject = (properties: Readonly<Record<string, object>>, required: ReadonlyArray<string>): object => ({
  type: "object",
  required,
  properties,
  additionalProperties: false
})

const describedAs = (type: string, more: Readonly<Record<string, object>> = {}, required: ReadonlyArray<string> = []) =>
  closedObject(
    { type: { type: "string", enum: [type] }, description: { type: "string", maxLength: maxDescription }, ...more },
    ["type", "description", ...required]
  )

const enumOf = { type: "array", minItems: 1, maxItems: maxEnumItems, items: { type: "string", maxLength: maxEnumItem } }
const scalarClaims = [describedAs("boolean"), describedAs("string", { enum: enumOf }), describedAs("number")]

/** A claim at `depth` (top-level claims are 1). */
const claimJsonSchema = (depth: number): object => ({
  anyOf: [
    ...scalarClaims,
    describedAs("array", { items: { anyOf: scalarClaims } }, ["items"]),
    describedAs("object", claimsJsonSchema(depth + 1), ["properties", "additionalProperties"])
  ]
})

/** An object's claims, at `depth`: none below maxDepth. */
const claimsJsonSchema = (depth: number): Readonly<Record<string, object>> => ({
  properties: depth > maxDepth
    ? { type: "object", maxProperties: 0 }
    : { type: "object", additionalProperties: claimJsonSchema(depth) },
  additionalProperties: { type: "boolean", enum: [false] }
})

/**
 * The adaptive schema as JSON Schema, for the API's document: GB's SiteAdaptiveJSONSchema with `$id`, closed at
 * every level as `adaptiveSchemaProblem` is (the sizes and counts it also checks are not all said here).
 */
export const adaptiveSchemaJsonSchema: object = {
  $id: "/schemas/site-adaptive-json-schema",
  ...closedObject({
    $schema: { type: "string", enum: [draft07] },
    $id: { type: "string", format: "uri", maxLength: maxId },
    type: { type: "string", enum: ["object"] },
    properties: {
      type: "object",
      // `unsigned` holds the unsigned claims, with the description GB gives it.
      properties: {
        unsigned: closedObject({
          type: { type: "string", enum: ["object"] },
          description: { type: "string", enum: [unsignedDescription] },
          ...claimsJsonSchema(2)
        }, ["type", "description", "properties", "additionalProperties"])
      },
      additionalProperties: claimJsonSchema(1)
    },
    additionalProperties: { type: "boolean", enum: [false] }
  }, ["type", "properties", "additionalProperties"])
}

/**
 * Why `json` is not an adaptive schema we accept, or undefined when it is; otherwise
 * `{ pointer: "/properties/plan/enum/3", rule: "must be unique" }`. The pointer is RFC 6901 ("" is the root).
 * Size comes first (64 KiB of UTF-8 JSON), then the walk, which never descends past the 4 allowed levels,
 * so hostile input neither throws nor recurses deeply. The 100 properties are counted over all levels.
 */
export const adaptiveSchemaProblem = (json: unknown): Problem | undefined => {
  return sizeProblem(json) ?? rootProblem(json)
}

/**
 * The deterministic claims (GB's SiteAdaptiveDeterministicJSONSchemaPrimitives: booleans, and strings with
 * `enum`), as paths with their possible values, depth first in schema order; booleans give `[true, false]`.
 * Claims inside objects (`unsigned` included) have the object names in their paths; arrays are not claims
 * of one value, so they are left out. The schema is assumed valid, so the walk is at most 4 deep.
 */
export const deterministicClaims = (
  schema: AdaptiveJsonSchema
): ReadonlyArray<{ readonly path: ReadonlyArray<string>; readonly values: ReadonlyArray<string | boolean> }> => {
  const claims: Array<{ readonly path: ReadonlyArray<string>; readonly values: ReadonlyArray<string | boolean> }> = []
  const visit = (properties: Readonly<Record<string, AdaptiveProperty>>, prefix: ReadonlyArray<string>): void => {
    for (const name of Object.keys(properties)) {
      const property = properties[name]!
      const path = [...prefix, name]
      if (property.type === "boolean") claims.push({ path, values: [true, false] })
      else if (property.type === "string" && property.enum !== undefined) claims.push({ path, values: property.enum })
      else if (property.type === "object") visit(property.properties, path)
    }
  }
  visit(schema.properties, [])
  return claims
}
