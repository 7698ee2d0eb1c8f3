import { type FuzzRequest, type IdPool, type Random, setAt } from "./generate.js"
import { type JsonSchema, labelOf, type Operation, type Parameter } from "./openapi.js"

// The systematic pass (issue 38): for every operation, a full valid body (every property present, every array
// holding items, every branch of a union somewhere), and at each of its spots, then at each query parameter,
// a fixed set of bad values. The random fuzz picks its spots; this one visits them all.

/** Names whose values are ids of the world, by the path parameter that holds the id. */
const idKeys: Readonly<Record<string, string>> = {
  add: "userId",
  authors: "userId",
  collection: "collectionId",
  defaultSiteSection: "firstSectionId",
  defaultSiteSpace: "siteSpaceId",
  defaultTeam: "teamId",
  file: "fileId",
  into: "pageId",
  members: "userId",
  organization: "organizationId",
  owner: "userId",
  page: "pageId",
  pageId: "pageId",
  parent: "collectionId",
  remove: "userId",
  revision: "revisionId",
  sectionGroupId: "siteSectionGroupId",
  sectionId: "firstSectionId",
  sections: "siteSectionId",
  site: "siteId",
  siteSection: "siteSectionId",
  siteSectionGroupId: "siteSectionGroupId",
  siteSectionId: "siteSectionId",
  siteSpace: "siteSpaceId",
  siteSpaceId: "siteSpaceId",
  space: "spaceId",
  spaceId: "secondSpaceId",
  spaces: "spaceId",
  targetPage: "pageId",
  team: "teamId",
  user: "userId"
}

/** Names that must be unique where they are created: each request gets its own. */
const uniqueKeys = new Set(["name", "slug", "hostname", "label", "path", "basename"])

/** Values a field of this name accepts, where neither its type nor its format tells. */
const knownValues: Readonly<Record<string, string>> = {
  addedReactions: "1f600",
  base64: "aGk=",
  condition: "true",
  contentType: "text/plain",
  emailDomains: "fuzz.test",
  emoji: "1f600",
  entityID: "urn:fuzz:idp",
  icon: "book",
  ip: "127.0.0.1",
  language: "en",
  markdown: "Hello, *world*.",
  removedReactions: "1f600",
  script: "export default {}",
  source: "website",
  text: JSON.stringify({ openapi: "3.1.0", info: { title: "Pets", version: "1.0.0" }, paths: {} })
}

/** Pairs of properties of which a body takes exactly one: a variant takes the first or the second. */
const exclusive: ReadonlyArray<readonly [string, string]> = [
  ["markdown", "document"],
  ["base64", "url"],
  ["url", "text"],
  ["emoji", "icon"],
  ["before", "after"]
]

/** What a full body is made with: the ids, a variant (which branch of each union), and a counter for unique names. */
export interface Making {
  readonly pool: IdPool
  readonly variant: number
  /** Values for names the world needs (a SAML certificate). */
  readonly known?: Readonly<Record<string, string>>
  unique: number
}

const nonNull = (branches: ReadonlyArray<JsonSchema>) => branches.filter((b) => b.type !== "null")

const stringFor = (schema: JsonSchema, key: string, making: Making): string => {
  const id = making.pool.params[idKeys[key] ?? ""]
  if (id !== undefined) return id
  if (uniqueKeys.has(key)) return `fuzz-${making.variant}-${making.unique++}`
  if (key === "proxy") return `example.com/fuzz-${making.unique++}`
  // Refs name pages and files within a batch, and branches in Git: each its own.
  if (key === "ref") return `refs/heads/fuzz-${making.unique++}`
  if (schema.format === "email" || key === "email" || key === "emails") return `fuzz-${making.unique++}@example.com`
  // What the server fetches is at a loopback address, which it refuses at once without a network.
  if (key === "url") return "https://127.0.0.1/fuzz"
  if (schema.format === "uri" || /url$/i.test(key)) return "https://example.com/fuzz"
  if (schema.format === "date-time" || key === "timestamp") return "2026-01-01T00:00:00.000Z"
  // A site redirect's source is a path of the site (an import's `source` is a word, below).
  if (key === "source" && schema.pattern?.startsWith("^\\/") === true) return `/fuzz-${making.unique++}`
  const known = making.known?.[key] ?? knownValues[key]
  if (known !== undefined) return known
  if (schema.pattern !== undefined && /a-z0-9/.test(schema.pattern)) return `fuzz-${making.unique++}`
  const text = "Fuzz text"
  const min = schema.minLength ?? 0
  return (text.length < min ? text + "x".repeat(min - text.length) : text).slice(0, Math.max(min, schema.maxLength ?? 64))
}

/**
 * A valid value with every property present and arrays filled: an array of a union holds one item of each
 * branch, other arrays one item (their items are alike, and some refuse the same one twice); elsewhere the
 * variant chooses a union's branch and an enum's value.
 */
export const fullValue = (schema: JsonSchema, making: Making, key = "", depth = 0): unknown => {
  if (schema.anyOf !== undefined && schema.anyOf.length > 0) {
    const choices = nonNull(schema.anyOf)
    if (choices.length === 0) return null
    return fullValue(choices[making.variant % choices.length]!, making, key, depth)
  }
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[making.variant % schema.enum.length]
  switch (schema.type) {
    case "string":
      return stringFor(schema, key, making)
    case "integer":
    case "number": {
      const value = schema.minimum ?? (key === "limit" || key === "precision" ? 1 : 0)
      return Math.min(value, schema.maximum ?? value)
    }
    case "boolean":
      return making.variant % 2 === 0
    case "null":
      return null
    case "array": {
      if (depth > 8) return []
      const itemSchema = schema.items ?? {}
      const branches = nonNull(itemSchema.anyOf ?? [])
      if (branches.length > 1) return branches.map((branch) => fullValue(branch, making, key, depth + 1))
      return Array.from({ length: Math.max(schema.minItems ?? 0, 1) }, () => fullValue(itemSchema, making, key, depth + 1))
    }
    case "object": {
      if (depth > 8) return {}
      const properties = schema.properties ?? {}
      const left = new Set(
        exclusive.filter((pair) => pair.every((name) => name in properties)).map((pair) => pair[(making.variant + 1) % 2]!)
      )
      const entries = Object.entries(properties)
        .filter(([name]) => !left.has(name))
        .map(([name, value]) => [name, fullValue(value, making, name, depth + 1)] as const)
      if (entries.length === 0 && typeof schema.additionalProperties === "object") {
        return { [recordKey(key, schema, making)]: fullValue(schema.additionalProperties, making, `${key}.*`, depth + 1) }
      }
      return Object.fromEntries(entries)
    }
    default:
      return "Fuzz text"
  }
}

/**
 * A key for a record of this name: the first its schema names, if it names them (a localized text's languages); else
 * the memberships of a team are by user, custom field values by field name.
 */
const recordKey = (key: string, schema: JsonSchema, making: Making): string => {
  const named = schema.propertyNames?.enum?.[0]
  if (typeof named === "string") return named
  return key === "memberships" ? making.pool.params.userId ?? "key" : key === "values" ? making.pool.params.fieldName ?? "key" : "key"
}

/** How many variants of a body visit every branch of its unions and both sides of its exclusive pairs. */
export const variantsOf = (schema: JsonSchema, depth = 0): number => {
  if (depth > 8) return 1
  const own = Math.max(
    schema.anyOf !== undefined ? nonNull(schema.anyOf).length : 1,
    exclusive.some((pair) => pair.every((name) => name in (schema.properties ?? {}))) ? 2 : 1
  )
  // An array of a union holds every branch at once: its items need no variants of their own.
  const arrayOfUnion = schema.type === "array" && nonNull(schema.items?.anyOf ?? []).length > 1
  const inner = [
    ...(schema.anyOf ?? []),
    ...Object.values(schema.properties ?? {}),
    ...(schema.items === undefined ? [] : arrayOfUnion ? nonNull(schema.items.anyOf ?? []) : [schema.items]),
    ...(typeof schema.additionalProperties === "object" ? [schema.additionalProperties] : [])
  ]
  return Math.min(6, Math.max(own, ...inner.map((s) => variantsOf(s, depth + 1))))
}

/** A place in a full body: a value to replace, or the keys of a record to replace. */
export interface Spot {
  readonly path: ReadonlyArray<string | number>
  readonly kind: "value" | "key"
  readonly schema: JsonSchema
  /** In an array of a union's branches, the array and the item the spot is in: the items after it can go. */
  readonly item?: { readonly array: ReadonlyArray<string | number>; readonly index: number }
}

/**
 * Every spot of a value, the root included; a record's keys are spots of their own. In an array of a union's
 * branches, what every branch has alike (the session and location of every kind of event) is visited in the
 * first item only.
 */
export const spotsOf = (value: unknown, schema: JsonSchema, path: ReadonlyArray<string | number> = []): Array<Spot> => {
  const here: Spot = { path, kind: "value", schema }
  const object = schema.anyOf?.find((s) => s.type === "object") ?? schema
  if (Array.isArray(value)) {
    const items = schema.items ?? schema.anyOf?.find((s) => s.type === "array")?.items ?? {}
    const branches = nonNull(items.anyOf ?? [])
    if (branches.length <= 1) return [here, ...value.flatMap((item, i) => spotsOf(item, items, [...path, i]))]
    const inItems = value.map((item, i) =>
      spotsOf(item, branches[i] ?? {}, [...path, i]).map((spot) => ({ ...spot, item: spot.item ?? { array: path, index: i } }))
    )
    const alike = (spot: Spot) => `${spot.kind} ${spot.path.slice(path.length + 1).join(".")} ${JSON.stringify(spot.schema)}`
    const counts = new Map<string, number>()
    for (const spots of inItems) for (const key of new Set(spots.map(alike))) counts.set(key, (counts.get(key) ?? 0) + 1)
    const common = (spot: Spot) => spot.path.length > path.length + 1 && counts.get(alike(spot)) === value.length
    return [here, ...inItems.flatMap((spots, i) => i === 0 ? spots : spots.filter((spot) => !common(spot)))]
  }
  if (value !== null && typeof value === "object") {
    const properties = object.properties ?? {}
    const record = Object.keys(properties).length === 0 && typeof object.additionalProperties === "object"
    return [
      here,
      ...(record ? [{ path, kind: "key", schema } as const] : []),
      ...Object.entries(value).flatMap(([key, inner]) =>
        spotsOf(inner, record ? object.additionalProperties as JsonSchema : properties[key] ?? {}, [...path, key])
      )
    ]
  }
  return [here]
}

export const spotName = (spot: Spot) =>
  `${spot.path.length === 0 ? "the root" : spot.path.join(".")}${spot.kind === "key" ? " (keys)" : ""}`

/**
 * Wrong values for any spot, in three kinds: other JSON types, strings no field should take (the first two,
 * which storage itself refuses, go to every spot), and containers where a scalar is expected.
 */
export const badValues: ReadonlyArray<ReadonlyArray<readonly [string, unknown]>> = [
  [
    ["null", null],
    ["true", true],
    ["0", 0],
    ["-1", -1],
    ["1.5", 1.5],
    ["1e308", 1e308],
    ["2^53+1", 2 ** 53 + 1]
  ],
  [
    ["a NUL b", "a\u0000b"],
    ["10,000 characters", "x".repeat(10_000)],
    ["empty string", ""],
    ["blank", " "],
    ["NUL", "\u0000"],
    ["lone surrogate", "a\uD800b"],
    ["../", "../x"],
    ["%00", "%00"],
    ["é", "\u00e9t\u00e9"],
    ["emoji", "\uD83D\uDC4D\uD83C\uDFFD"],
    ["direction override", "\u202Eevil"],
    ["control characters", "a\u0001\u001b[31mb"],
    ["quote", "' OR 1=1 --"]
  ],
  [
    ["object", { a: "b" }],
    ["empty object", {}],
    ["array", ["x"]],
    ["empty array", []],
    ["nested arrays", [[["x"]]]]
  ]
]

/** `count` bad values for a spot: the two strings storage refuses, then one of each kind in turn, drawn by `r`. */
const badValuesFor = (r: Random, count: number): ReadonlyArray<readonly [string, unknown]> => {
  const [types = [], strings = [], containers = []] = badValues
  const kinds = [[...types], [...strings.slice(2)], [...containers]]
  const chosen = strings.slice(0, Math.min(2, count))
  for (let i = 0; chosen.length < count && kinds.some((k) => k.length > 0); i++) {
    const kind = kinds[i % kinds.length]!
    if (kind.length > 0) chosen.push(kind.splice(r.int(kind.length), 1)[0]!)
  }
  return chosen
}

/** Keys no record should take silently; the first two, which storage itself refuses, go to every record. */
export const badKeys: ReadonlyArray<string> = ["\u0000", "x".repeat(10_000), "", "a\uD800", "../x", "%00", "\u00e9t\u00e9", "__proto__"]

/** A 1×1 PNG, for fields that take an image as base64. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="

type Path = ReadonlyArray<string | number>

/**
 * What the document cannot say, by operation: values that make its full body one the server accepts, so that
 * a bad value elsewhere goes as far as it can. `undefined` removes the property.
 */
const fixes: Readonly<Record<string, (params: Readonly<Record<string, string>>) => ReadonlyArray<readonly [Path, unknown]>>> = {
  // To the top (not into itself), before the space there.
  "POST /v1/collections/{collectionId}/move": (params) => [
    [["parent"], null],
    [["position", "before", "space"], params.secondSpaceId]
  ],
  "POST /v1/spaces/{spaceId}/move": (params) => [[["parent"], null], [["position", "before", "space"], params.secondSpaceId]],
  // Before the first section, at the top of the site.
  "POST /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move": (params) => [
    [["position", "before", "id"], params.firstSectionId]
  ],
  "POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move": (params) => [
    [["position", "before", "id"], params.firstSectionId]
  ],
  "POST /v1/orgs/{organizationId}/custom-fields": () => [[["type"], "select"]],
  // The world's field is a text field, which has no options.
  "PATCH /v1/orgs/{organizationId}/custom-fields/{fieldName}": () => [[["options"], undefined]],
  "PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema": () => [
    [["jsonSchema", "properties"], { plan: { type: "string", description: "Plan", enum: ["free", "pro"] } }]
  ],
  "POST /v1/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate": () => [
    [["where"], [{ column: "url", operator: "in", values: ["https://example.com/fuzz"] }]]
  ],
  // The second section holds the second space only.
  "POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces": (params) => [
    [["sectionId"], params.siteSectionId],
    [["spaceId"], params.spaceId]
  ],
  "POST /v1/integrations/{integrationName}": () => [
    [["icon"], PNG],
    [["previewImages"], [PNG]],
    // What a configuration requires is one of its properties, which are named "key" (see recordKey).
    ...["account", "space", "site"].map((on) => [["configurations", on, "required"], ["key"]] as const)
  ],
  "POST /v1/orgs/{organizationId}/openapi": () => [[["visibility"], undefined]],
  "PUT /v1/orgs/{organizationId}/openapi/{specSlug}": () => [[["visibility"], undefined]],
  // A page moves into no page of its own, and a page is reverted whole.
  "POST /v1/spaces/{spaceId}/content": () => [[["changes", 1, "into"], null], [["changes", 3, "block"], undefined]],
  "POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content": () => [
    [["changes", 1, "into"], null],
    [["changes", 3, "block"], undefined]
  ]
}

const parentOf = (body: unknown, path: Path): unknown => path.slice(0, -1).reduce<unknown>(at, body)

/** The full valid body of an operation, for the variant `making` names. */
export const fullBody = (operation: Operation, making: Making): unknown => {
  let body = fullValue(operation.body ?? {}, making)
  for (const [path, value] of fixes[labelOf(operation)]?.(making.pool.params) ?? []) {
    const parent = parentOf(body, path)
    if (parent !== null && typeof parent === "object" && String(path.at(-1)) in parent) body = setAt(body, path, value, value === undefined)
  }
  return body
}

/** The body with a union's array cut after the spot's item: the bad item comes after good ones, and bodies stay small. */
const upTo = (body: unknown, spot: Spot): unknown => {
  if (spot.item === undefined) return body
  const items = spot.item.array.reduce<unknown>(at, body) as ReadonlyArray<unknown>
  return setAt(body, spot.item.array, items.slice(0, spot.item.index + 1))
}

/** One bad value at one spot of a full body. */
export interface BodyCase {
  readonly variant: number
  readonly spot: Spot
  readonly what: string
  readonly make: (making: Making) => unknown
}

/**
 * The cases of one operation's body: each spot of each variant (a spot shared by variants once), with
 * `perSpot` bad values drawn by `r` (all of them when `perSpot` is at least their number).
 */
export const bodyCases = (operation: Operation, pool: IdPool, r: Random, perSpot: number): ReadonlyArray<BodyCase> => {
  const schema = operation.body
  if (schema === undefined) return []
  const seen = new Set<string>()
  const cases: Array<BodyCase> = []
  const variants = variantsOf(schema)
  for (let variant = 0; variant < variants; variant++) {
    const body = fullBody(operation, { pool, variant, unique: 0 })
    for (const spot of spotsOf(body, schema)) {
      const name = `${spotName(spot)}:${typeOf(spot.path.reduce<unknown>(at, body))}`
      if (seen.has(name)) continue
      seen.add(name)
      if (spot.kind === "key") {
        for (const key of [...badKeys.slice(0, Math.min(2, perSpot)), ...sample(r, badKeys.slice(2), perSpot - 2)]) {
          cases.push({
            variant,
            spot,
            what: `key ${JSON.stringify(key.slice(0, 12))}`,
            make: (making) => {
              const full = upTo(fullBody(operation, making), spot)
              const entry = Object.values(spot.path.reduce<unknown>(at, full) as Record<string, unknown>)[0]
              // Parsed, so that a key named __proto__ is a property of its own.
              return setAt(full, spot.path, JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(entry)}}`))
            }
          })
        }
        continue
      }
      for (const [what, value] of badValuesFor(r, perSpot)) {
        cases.push({ variant, spot, what, make: (making) => setAt(upTo(fullBody(operation, making), spot), spot.path, value) })
      }
    }
  }
  return cases
}

const at = (value: unknown, step: string | number): unknown =>
  value !== null && typeof value === "object" ? (value as Record<string | number, unknown>)[step] : undefined

const typeOf = (value: unknown) => Array.isArray(value) ? "array" : value === null ? "null" : typeof value

/** `count` of the items in a fixed order, drawn without repeats (all of them when count allows). */
const sample = <A>(r: Random, items: ReadonlyArray<A>, count: number): ReadonlyArray<A> => {
  if (count <= 0) return []
  if (count >= items.length) return items
  const pool = [...items]
  const chosen: Array<A> = []
  while (chosen.length < count) chosen.push(pool.splice(r.int(pool.length), 1)[0]!)
  return chosen
}

/** A query parameter's valid value, or undefined where none is known (a cursor, a share key): then it is left out. */
export const validQueryValue = (parameter: Parameter, pool: IdPool): string | undefined => {
  const schema = parameter.schema.anyOf?.find((s) => s.type !== "null") ?? parameter.schema
  if (parameter.name === "page" || parameter.name === "shareKey") return undefined
  if (parameter.name === "limit") return "2"
  // The source of the world's site redirect that no request changes.
  if (parameter.name === "source") return "/resolved"
  if (schema.enum !== undefined && schema.enum.length > 0) return String(schema.enum[0])
  const items = schema.type === "array" ? schema.items : undefined
  if (items?.enum !== undefined && items.enum.length > 0) return String(items.enum[0])
  const id = pool.params[idKeys[parameter.name] ?? ""]
  if (id !== undefined) return id
  if (schema.type === "boolean" || /true|false/.test(JSON.stringify(schema.anyOf ?? ""))) return "true"
  if (schema.type === "integer" || schema.type === "number") return "1"
  return "welcome"
}

/** Bad query values, already encoded as a request line carries them: `name` is the parameter's name. */
export const badQueries = (name: string, valid: string | undefined): ReadonlyArray<readonly [string, string]> => [
  ["empty", `${name}=`],
  ["no value", name],
  ["1.5", `${name}=1.5`],
  ["-1", `${name}=-1`],
  ["huge number", `${name}=99999999999999999999`],
  ["quote", `${name}='`],
  ["star", `${name}=*`],
  ["a & b", `${name}=a%20%26%20b`],
  ["%FF", `${name}=%FF`],
  ["%00", `${name}=%00`],
  ["é", `${name}=%C3%A9t%C3%A9`],
  ["5,000 characters", `${name}=${"x".repeat(5_000)}`],
  ["repeated", `${name}=${encodeURIComponent(valid ?? "x")}&${name}=${encodeURIComponent(valid ?? "x")}`],
  ["repeated, one bad", `${name}=${encodeURIComponent(valid ?? "x")}&${name}=%00`],
  ["name[]", `${name}[]=`],
  ["name[x]", `${name}[x]=1`]
]

/** The path of an operation with the pool's ids, encoded. */
export const pathOf = (operation: Operation, pool: IdPool) =>
  operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pool.params[name] ?? "missing"))

/** The valid query of an operation, as `name=value` parts, leaving out `except`. */
export const validQuery = (operation: Operation, pool: IdPool, except?: string): Array<string> =>
  operation.query.flatMap((p) => {
    if (p.name === except) return []
    const value = validQueryValue(p, pool)
    return value === undefined ? [] : [`${p.name}=${encodeURIComponent(value)}`]
  })

export const requestOf = (
  operation: Operation,
  pool: IdPool,
  authorization: string,
  query: ReadonlyArray<string>,
  body: unknown,
  what: string
): FuzzRequest => {
  const path = pathOf(operation, pool)
  return {
    method: operation.method,
    path: query.length === 0 ? path : `${path}?${query.join("&")}`,
    headers: {
      authorization,
      ...(operation.body === undefined ? {} : { "content-type": "application/json" })
    },
    body: operation.body === undefined ? undefined : JSON.stringify(body),
    what
  }
}
