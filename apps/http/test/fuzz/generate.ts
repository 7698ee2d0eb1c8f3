import type { JsonSchema, Operation, Parameter } from "./openapi.js"

/** A small seeded generator (mulberry32): the same seed gives the same requests on every machine. */
export class Random {
  private state: number
  constructor(seed: number) {
    this.state = seed >>> 0
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6D2B79F5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(below: number): number {
    return Math.floor(this.next() * below)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<A>(items: ReadonlyArray<A>): A {
    if (items.length === 0) throw new Error("nothing to pick from")
    return items[this.int(items.length)] as A
  }
}

/** A request as the fuzzer sends it: the path is written byte for byte, so it is already encoded. */
export interface FuzzRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | Buffer | undefined
  /** What is wrong with it, to reproduce a failure. */
  readonly what: string
}

/** Ids the world has, by path parameter name, and ids of objects the caller should not reach. */
export interface IdPool {
  readonly params: Readonly<Record<string, string>>
  readonly foreign: ReadonlyArray<string>
  /** Path parameters that must never get their valid value (a credential, a write any member may make). */
  readonly neverValid?: ReadonlyArray<string>
}

// Strings no one should send: control characters, NUL, lone surrogates, direction overrides, markup, paths.
const badStrings: ReadonlyArray<string> = [
  "",
  " ",
  "a\u0000b",
  "\u0000",
  "\uD800",
  "a\uDC00b",
  "\uDBFF\uDBFF",
  "\u0001\u0007\u001b[31mred",
  "\r\n\r\nX-Injected: 1",
  "\t\v\f",
  "\u202Eevil",
  "\uFEFFbom",
  "\u00A0\u2028\u2029",
  "👍🏽👨‍👩‍👧",
  "e\u0301\u0301\u0301",
  "𝕌𝕟𝕚𝕔𝕠𝕕𝕖",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "%00%2e%2e",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "NaN",
  "-1",
  "1e309",
  "{}",
  // Markdown and URLs that parsers recurse or loop on.
  `${"> ".repeat(3_000)}quote`,
  `${"- ".repeat(3_000)}item`,
  `${"  ".repeat(2_000)}- indented`,
  "[".repeat(20_000),
  `${"*".repeat(10_000)}a${"_".repeat(10_000)}`,
  "`".repeat(5_000),
  "<div>".repeat(5_000),
  `${"#".repeat(200)} heading`,
  `[a](${"(".repeat(5_000)})`,
  `${"![".repeat(3_000)}x`,
  "|a|b|\n|-|-|\n".repeat(2_000),
  "\n".repeat(20_000),
  "http://[::1]:99999/",
  "file:///etc/passwd",
  "javascript:alert(1)",
  "http://%00/",
  "http://example.com/\u0000",
  "data:text/html;base64,PHNjcmlwdD4=",
  "====",
  "!!not base64!!"
]

/** Values of every JSON type, the wrong one for most fields. */
const wrongTypes: ReadonlyArray<unknown> = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0,
  1e308,
  -1e308,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER * 1024,
  "text",
  "",
  [],
  [null],
  {},
  { "__proto__": { "polluted": true } },
  { "": "" }
]

const long = (length: number, unit = "x") => unit.repeat(Math.ceil(length / unit.length))

/** Nested arrays `depth` levels deep around a value. */
const nestedArrays = (depth: number, inner: unknown): unknown => {
  let value = inner
  for (let i = 0; i < depth; i++) value = [value]
  return value
}
const nestedObjects = (depth: number): unknown => {
  let value: unknown = "bottom"
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

const sampleText = ["Fuzzed", "guides", "hello world", "a", "Ünïcödé", "ok-123"]
/** Fields named so hold ids of the world, and slug-like names lower-case words: values that get past decoding. */
const idKeys: Readonly<Record<string, string>> = {
  page: "pageId",
  into: "pageId",
  targetPage: "pageId",
  parent: "collectionId",
  collection: "collectionId",
  revision: "revisionId",
  organization: "organizationId",
  space: "spaceId",
  file: "fileId",
  team: "teamId",
  user: "userId",
  owner: "userId",
  add: "userId",
  remove: "userId",
  members: "userId",
  authors: "userId"
}
const slugKey = /^(slug|name|ref)$/
const exclusive: ReadonlyArray<readonly [string, string]> = [["markdown", "document"], ["base64", "url"]]

/** A value the schema accepts, as far as the fuzzer knows: ids come from the pool, so many requests get past decoding. */
export const validValue = (schema: JsonSchema, r: Random, pool: IdPool, depth = 0, key = ""): unknown => {
  if (schema.anyOf !== undefined && schema.anyOf.length > 0) return validValue(r.pick(schema.anyOf), r, pool, depth, key)
  if (schema.enum !== undefined && schema.enum.length > 0) return r.pick(schema.enum)
  switch (schema.type) {
    case "string": {
      const min = schema.minLength ?? 0
      const max = schema.maxLength ?? 64
      const named = pool.params[idKeys[key] ?? ""]
      const base = named !== undefined && r.chance(0.7)
        ? named
        : key in idKeys || r.chance(0.15)
        ? r.pick(Object.values(pool.params))
        : slugKey.test(key)
        ? r.pick(["fuzz", "fuzz-slug", "a.b_c"])
        : r.pick(sampleText)
      const text = base.length < min ? base + long(min - base.length) : base
      return text.slice(0, Math.max(min, Math.min(max, text.length)))
    }
    case "integer":
    case "number": {
      const min = schema.minimum ?? 0
      const max = Math.min(schema.maximum ?? min + 50, min + 50)
      return min + r.int(max - min + 1)
    }
    case "boolean":
      return r.chance(0.5)
    case "null":
      return null
    case "array": {
      if (depth > 6) return []
      const min = schema.minItems ?? 0
      const count = Math.min(schema.maxItems ?? min + 2, min + r.int(3))
      return Array.from({ length: count }, () => validValue(schema.items ?? {}, r, pool, depth + 1, key))
    }
    case "object": {
      if (depth > 6) return {}
      const required = new Set(schema.required ?? [])
      const properties = schema.properties ?? {}
      // The API takes exactly one of some pairs, which the document cannot say: one of each is chosen.
      const excluded = new Set(
        exclusive.filter((pair) => pair.every((name) => name in properties)).map((pair) => r.chance(0.5) ? pair[0] : pair[1])
      )
      const chosen = new Set(exclusive.flat().filter((name) => name in properties && !excluded.has(name)))
      const entries = Object.entries(properties)
        .filter(([key]) => !excluded.has(key) && (required.has(key) || chosen.has(key) || r.chance(0.5)))
        .map(([name, value]) => [name, validValue(value, r, pool, depth + 1, name)] as const)
      return Object.fromEntries(entries)
    }
    default:
      return r.pick(sampleText)
  }
}

/** A place in a generated body: the path to it and the schema that describes it there. */
interface Spot {
  readonly path: ReadonlyArray<string | number>
  readonly schema: JsonSchema
}

const spotsOf = (value: unknown, schema: JsonSchema, path: ReadonlyArray<string | number> = []): Array<Spot> => {
  const here: Spot = { path, schema }
  if (Array.isArray(value)) {
    const items = schema.items ?? schema.anyOf?.find((s) => s.type === "array")?.items ?? {}
    return [here, ...value.flatMap((item, i) => spotsOf(item, items, [...path, i]))]
  }
  if (value !== null && typeof value === "object") {
    const properties = schema.properties ?? schema.anyOf?.find((s) => s.type === "object")?.properties ?? {}
    return [here, ...Object.entries(value).flatMap(([key, inner]) => spotsOf(inner, properties[key] ?? {}, [...path, key]))]
  }
  return [here]
}

/** The body with the value at `path` replaced (or removed, for `remove`). */
export const setAt = (body: unknown, path: ReadonlyArray<string | number>, value: unknown, remove = false): unknown => {
  if (path.length === 0) return value
  const [head, ...rest] = path as [string | number, ...Array<string | number>]
  if (Array.isArray(body)) {
    const copy = [...body]
    if (remove && rest.length === 0) copy.splice(head as number, 1)
    else copy[head as number] = setAt(copy[head as number], rest, value, remove)
    return copy
  }
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) }
  if (remove && rest.length === 0) delete copy[head]
  else copy[head] = setAt(copy[head], rest, value, remove)
  return copy
}

const stringLimitBreakers = (schema: JsonSchema): ReadonlyArray<string> => {
  const max = schema.maxLength
  return [
    ...(max === undefined ? [] : [long(max + 1), long(max + 1, "é"), long(max * 2 + 2, "👍"), long(max, "a\u0000")]),
    ...(schema.minLength !== undefined && schema.minLength > 0 ? [long(schema.minLength - 1), " ".repeat(schema.minLength)] : []),
    long(10_000),
    long(70_000, "\u0000\u0001")
  ]
}

/** Markdown within the limits that a parser could recurse, backtrack or build a huge tree on; the server survives these. */
const survivedBombs: ReadonlyArray<string> = [
  "[".repeat(50_000),
  `${"![".repeat(20_000)}x`,
  "_".repeat(200_000),
  "`".repeat(200_000),
  "<".repeat(50_000),
  "<div>".repeat(20_000),
  "<!--".repeat(20_000),
  "&#x".repeat(20_000),
  "\\".repeat(20_000),
  `| a |\n|${"-|".repeat(20_000)}`,
  "| a | b |\n|---|---|\n".repeat(5_000),
  "# h\n".repeat(20_000),
  "\n".repeat(500_000),
  "\u0000".repeat(100_000),
  "\uD800".repeat(100_000),
  "{% hint %}".repeat(10_000),
  `${"{% tabs %}".repeat(2_000)}${"{% endtabs %}".repeat(2_000)}`,
  "$$".repeat(50_000),
  "[^1]: a\n".repeat(10_000),
  `${"a".repeat(100_000)}${"\u0301".repeat(100_000)}`
]

/**
 * Markdown that the parser (micromark, under packages/markdown) once spent minutes on or overflowed
 * the stack with: runs of emphasis markers, list markers and quotes nested thousands deep, on one
 * line or by indentation, nested link openers. `markdownProblem` now refuses them before parsing.
 */
const parserBombs: ReadonlyArray<string> = [
  `${"*".repeat(100_000)}a${"*".repeat(100_000)}`,
  `${"- ".repeat(50_000)}deep`,
  `${"> ".repeat(50_000)}deep`,
  `${"1. ".repeat(30_000)}deep`,
  Array.from({ length: 2_000 }, (_, i) => `${"  ".repeat(i)}- item`).join("\n"),
  `${"[a](".repeat(30_000)}x`,
  "](".repeat(100_000),
  "*a".repeat(100_000),
  "*_".repeat(100_000)
]

const markdownBombs = [...survivedBombs, ...parserBombs]

const isDocumentField = (spot: Spot) => (spot.schema.maxLength ?? 0) >= 100_000 || spot.path[spot.path.length - 1] === "markdown"

/** One wrong thing at one spot of a body, with a word for what it is. */
const breakSpot = (r: Random, spot: Spot): { readonly value: unknown; readonly what: string; readonly remove?: true } => {
  // Fields that take documents (markdown up to a million characters) get what a document parser chokes on.
  if (isDocumentField(spot) && r.chance(0.7)) return { value: r.pick(markdownBombs), what: "markdown bomb" }
  const kind = r.int(10)
  switch (kind) {
    case 0:
    case 1:
      return { value: r.pick(wrongTypes), what: "wrong type" }
    case 2:
    case 3:
      return { value: r.pick(badStrings), what: "bad string" }
    case 4:
      return { value: r.pick(stringLimitBreakers(spot.schema)), what: "oversized or undersized string" }
    case 5:
      return spot.path.length > 0 ? { value: undefined, what: "missing field", remove: true } : { value: {}, what: "empty body" }
    case 6: {
      const depth = r.pick([8, 40, 62, 63, 64, 65, 300])
      return { value: r.chance(0.5) ? nestedArrays(depth, 1) : nestedObjects(depth), what: `nested ${depth} deep` }
    }
    case 7: {
      const size = r.pick([1_000, 10_001, 100_000, 200_000])
      const item = r.pick<unknown>([0, "x", null, {}, { operation: "delete_page", page: "p" }])
      return { value: Array.from({ length: size }, () => item), what: `array of ${size}` }
    }
    case 8:
      return {
        value: r.pick<unknown>([-1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e-308, 0.5, -0, 4294967296]),
        what: "number out of range"
      }
    default:
      return { value: r.pick(badStrings), what: "bad string" }
  }
}

/** A body of valid shape with one or two things broken in it, or extra fields, or the wrong root. */
const brokenBody = (r: Random, schema: JsonSchema, pool: IdPool): { readonly body: unknown; readonly what: string } => {
  let body = validValue(schema, r, pool)
  const whats: Array<string> = []
  const times = r.chance(0.25) ? 2 : 1
  for (let i = 0; i < times; i++) {
    if (r.chance(0.1)) {
      const extra = r.pick(["__proto__", "constructor", "unknownField", "", "\u0000", "id", "organization"])
      body = body !== null && typeof body === "object" && !Array.isArray(body) ? { ...body, [extra]: r.pick(wrongTypes) } : body
      whats.push(`extra field ${JSON.stringify(extra)}`)
      continue
    }
    const spots = spotsOf(body, schema)
    // Documents are few among a body's fields but the likeliest to make a parser fail: they get more of the attention.
    const documents = spots.filter(isDocumentField)
    const spot = documents.length > 0 && r.chance(0.4) ? r.pick(documents) : r.pick(spots)
    const broken = breakSpot(r, spot)
    body = setAt(body, spot.path, broken.value, broken.remove === true)
    whats.push(`${broken.what} at ${spot.path.length === 0 ? "the root" : spot.path.join(".")}`)
  }
  return { body, what: whats.join(", ") }
}

/** Texts that are not JSON, or not quite. */
const malformed = (valid: string): ReadonlyArray<string | Buffer> => [
  valid.slice(0, Math.max(1, Math.floor(valid.length / 2))),
  `${valid}}`,
  `${valid}${valid}`,
  valid.replaceAll("\"", "'"),
  `\uFEFF${valid}`,
  "{\"title\":}",
  "{\"a\":1,}",
  "[1,2,]",
  "{",
  "\"",
  "\"\\x41\"",
  "\"\\ud800\"",
  "NaN",
  "undefined",
  "{\"a\":1e999999}",
  "{\"a\":-}",
  "nul",
  " ",
  "\u0000",
  "{\"\u0000\":\"\u0001\"}",
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  Buffer.from([0xed, 0xa0, 0x80])
]

const badContentTypes = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=x",
  "application/json-patch+json",
  "application/jsonp",
  "application/json; charset=utf-16",
  "APPLICATION/JSON",
  "application/json;;;",
  "*/*",
  "json",
  ""
]

// Node's parser answers a request line over 16 KiB itself (431), before the app: the test server is plain Node, so
// lengths stay under it (the production server's answer to it is NodeServer.ts's, in the API's shape).

/** Path parameter values that are odd in every way: traversal, encodings, lengths, numbers, other objects' ids. */
const badPathValues = (r: Random, pool: IdPool, valid: string): string => {
  switch (r.int(6)) {
    case 0:
      return r.pick(pool.foreign)
    case 1:
      // An id of the world, of another kind (a space's id where an organization's is expected).
      return r.pick(Object.values(pool.params).map(encodeURIComponent).filter((id) => id !== valid))
    default:
      return r.pick([
        "..",
        ".",
        "%2e%2e",
        "..%2f..%2fetc",
        "%00",
        `${valid}%00`,
        "a%20b",
        "a%2Fb",
        "%",
        "%zz",
        "%C0%AE",
        "%FF",
        "%ED%A0%80",
        "%F0%9F%98%80",
        "%C3%A9t%C3%A9",
        "%0D%0A",
        long(2_000),
        long(8_000),
        "-1",
        "0",
        "2147483648",
        "4294967296",
        "99999999999999999999999999",
        "1e309",
        "NaN",
        "Infinity",
        "0x10",
        "null",
        "undefined",
        "__proto__",
        "constructor",
        "*",
        "a;b",
        `${valid}.json`,
        `${valid}%20`,
        valid.toUpperCase()
      ])
  }
}

/** Query values that break each parameter: wrong enums, numbers out of range, garbage cursors, repeats. */
const badQuery = (r: Random, parameter: Parameter): string => {
  const name = parameter.name
  const value = r.pick([
    "",
    "bogus",
    "-1",
    "0",
    "1.5",
    "1e309",
    "NaN",
    "Infinity",
    "0x10",
    "%20%205",
    "99999999999999999999",
    "2147483648",
    "%00",
    "%ED%A0%80",
    "%FF",
    "%",
    "a%0Ab",
    long(1_000),
    long(4_000),
    "eyJ9",
    "!!!",
    "true",
    "null",
    "__proto__"
  ])
  switch (r.int(5)) {
    case 0:
      return `${name}=${value}&${name}=${value}`
    case 1:
      return `${name}[]=1&${name}[x]=2`
    case 2:
      return name
    default:
      return `${name}=${value}`
  }
}

const queryValue = (r: Random, parameter: Parameter, pool: IdPool): string => {
  const value = validValue(parameter.schema, r, pool)
  if (parameter.schema.description?.includes("number") === true || parameter.name === "limit") return String(1 + r.int(50))
  return encodeURIComponent(String(value))
}

export interface Caller {
  readonly name: string
  /** The Authorization header it sends, if any. */
  readonly authorization: string | undefined
}

/** One fuzz request for an operation: a valid request made wrong in one or two ways. */
export const fuzzRequest = (r: Random, operation: Operation, pool: IdPool, caller: Caller): FuzzRequest => {
  const whats: Array<string> = []
  const hasParams = operation.pathParams.length > 0
  const kinds = [
    ...(hasParams ? ["path", "path", "path"] : []),
    "query",
    "query",
    ...(operation.body === undefined ? ["stray body"] : ["body", "body", "body", "body", "malformed", "content type"]),
    "as is"
  ]
  const kind = r.pick(kinds)
  const broken = new Set(kind === "path" ? [r.pick(operation.pathParams)] : [])
  for (const name of pool.neverValid ?? []) if (operation.pathParams.includes(name)) broken.add(name)
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const valid = pool.params[name] ?? "missing"
    if (!broken.has(name)) return encodeURIComponent(valid)
    const proposed = badPathValues(r, pool, encodeURIComponent(valid))
    const bad = proposed === encodeURIComponent(valid) ? "%00" : proposed
    whats.push(`path ${name}=${bad.length > 40 ? `${bad.slice(0, 20)}…(${bad.length})` : bad}`)
    return bad
  })
  const query = operation.query
    .filter((p) => p.required || r.chance(0.3))
    .map((p) => `${p.name}=${queryValue(r, p, pool)}`)
  if (kind === "query") {
    const parameter = operation.query.length > 0 && r.chance(0.85)
      ? r.pick(operation.query)
      : { name: r.pick(["unknown", "__proto__", "limit", "page", "%00"]), required: false, schema: {} }
    const bad = badQuery(r, parameter)
    query.push(bad)
    whats.push(`query ${bad.length > 40 ? `${bad.slice(0, 20)}…(${bad.length})` : bad}`)
  }
  const url = query.length === 0 ? path : `${path}?${query.join("&")}`

  const headers: Record<string, string> = {}
  if (caller.authorization !== undefined) headers.authorization = caller.authorization
  let body: string | Buffer | undefined
  if (operation.body !== undefined) {
    headers["content-type"] = "application/json"
    if (kind === "body") {
      const made = brokenBody(r, operation.body, pool)
      body = JSON.stringify(made.body)
      whats.push(`body: ${made.what}`)
    } else {
      body = JSON.stringify(validValue(operation.body, r, pool))
    }
    if (kind === "malformed") {
      body = r.pick(malformed(body))
      whats.push(`malformed JSON ${JSON.stringify(body.toString().slice(0, 40))}`)
    }
    if (kind === "content type") {
      const type = r.pick([...badContentTypes, "none"])
      if (type === "none") delete headers["content-type"]
      else headers["content-type"] = type
      whats.push(`content type ${type}`)
    }
  } else if (kind === "stray body") {
    headers["content-type"] = r.pick(["application/json", "text/plain"])
    body = r.pick(["{}", "{\"a\":1}", "[", long(1_000)])
    whats.push(`a body where none is taken (${headers["content-type"]})`)
  }
  if (kind === "as is") whats.push("as is")
  return { method: operation.method, path: url, headers, body, what: `${caller.name}: ${whats.join("; ")}` }
}
