import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js"
import * as formatsModule from "ajv-formats"
import type { FormatsPlugin } from "ajv-formats"

/**
 * GitBook conformance: every JSON answer of an operation GitBook also has must validate against
 * GitBook's own response schema for it (`@gitbook/api`'s spec/openapi.json), as GitBook's client
 * reads it. The harness records each answer here; a setup file fails each test file listing what
 * it collected.
 */

interface ResponseObject {
  readonly $ref?: string
  readonly content?: Readonly<Record<string, { readonly schema?: unknown }>>
}

interface OperationObject {
  readonly operationId?: string
  readonly responses?: Readonly<Record<string, ResponseObject>>
}

interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, OperationObject>>>>
}

export interface GitBookOperation {
  readonly operationId: string
  readonly method: string
  /** GitBook's path template, as it is under our `/v1`: `/v1/spaces/{spaceId}`. */
  readonly path: string
  readonly responses: Readonly<Record<string, ResponseObject>>
}

export interface Mismatch {
  /** `operationId METHOD /v1/template`. */
  readonly operation: string
  readonly status: number
  /** JSON pointer into the answered body. */
  readonly pointer: string
  /** The ajv keyword, its message and where in GitBook's document the rule is. */
  readonly rule: string
}

const SPEC_ID = "gitbook"
/** GitBook's server is `{host}/v1`; Octavo serves the same paths under `/v1`. */
const PREFIX = "/v1"
/** Path parameters whose value may span slashes, as GitBook's client sends them. */
const SPANNING = new Set(["pagePath"])
const METHODS = new Set(["get", "put", "post", "delete", "patch"])

const require = createRequire(import.meta.url)
export const gitbookSpec: OpenApiDocument = JSON.parse(readFileSync(require.resolve("@gitbook/api/spec/openapi.json"), "utf8"))

interface Template {
  readonly operation: GitBookOperation
  readonly pattern: RegExp
  /** Literal segments weigh 2, single-segment parameters 1, spanning ones 0: the most literal template wins. */
  readonly weights: ReadonlyArray<number>
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const templateOf = (operation: GitBookOperation): Template => {
  const segments = operation.path.split("/").slice(1)
  const weights: Array<number> = []
  const parts = segments.map((segment) => {
    const parameter = /^\{(.+)\}$/.exec(segment)?.[1]
    if (parameter === undefined) {
      weights.push(2)
      return escapeRegExp(segment)
    }
    const spans = SPANNING.has(parameter)
    weights.push(spans ? 0 : 1)
    return spans ? ".+" : "[^/]+"
  })
  return { operation, pattern: new RegExp(`^/${parts.join("/")}$`), weights }
}

const compareWeights = (a: Template, b: Template): number => {
  for (let i = 0; i < Math.max(a.weights.length, b.weights.length); i++) {
    const difference = (b.weights[i] ?? -1) - (a.weights[i] ?? -1)
    if (difference !== 0) return difference
  }
  return 0
}

/** Every operation of GitBook's document. */
export const gitbookOperations: ReadonlyArray<GitBookOperation> = Object.entries(gitbookSpec.paths).flatMap(([path, methods]) =>
  Object.entries(methods).flatMap(([method, operation]) =>
    METHODS.has(method) && operation.operationId !== undefined
      ? [{
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path: `${PREFIX}${path}`,
        responses: operation.responses ?? {}
      }]
      : []
  )
)

const templates: ReadonlyMap<string, ReadonlyArray<Template>> = (() => {
  const byMethod = new Map<string, Array<Template>>()
  for (const operation of gitbookOperations) {
    const list = byMethod.get(operation.method) ?? []
    list.push(templateOf(operation))
    byMethod.set(operation.method, list)
  }
  for (const list of byMethod.values()) list.sort(compareWeights)
  return byMethod
})()

/** GitBook's operation for a request Octavo answers, if GitBook has one (the query string is ignored). */
export const matchOperation = (method: string, concretePath: string): GitBookOperation | undefined => {
  const path = concretePath.split(/[?#]/)[0] ?? ""
  return templates.get(method.toUpperCase())?.find((template) => template.pattern.test(path))?.operation
}

/** The operation of GitBook's document at a template of ours (`/v1/spaces/{spaceId}`), parameter names aside. */
export const operationAtTemplate = (method: string, template: string): GitBookOperation | undefined => {
  const shape = (path: string) => path.replace(/\{[^}]+\}/g, "{}")
  return gitbookOperations.find((operation) => operation.method === method.toUpperCase() && shape(operation.path) === shape(template))
}

export const describeOperation = (operation: GitBookOperation) => `${operation.operationId} ${operation.method} ${operation.path}`

// OpenAPI 3.1's schemas are JSON Schema 2020-12; its own keywords (`discriminator`, `example`, `x-*`) are
// annotations that `strict: false` lets through. `verbose` gives each error the schema object it broke.
const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false })
// ajv-formats is CommonJS: imported from ESM, its plugin is the namespace's default (module.exports).
const addFormats = (formatsModule as unknown as { readonly default: FormatsPlugin }).default
addFormats(ajv)
// GitBook's own formats: an emoji code and an icon name, both plain strings to its client.
ajv.addFormat("emoji", true)
ajv.addFormat("icon", true)
/** What the patches below touch in one of GitBook's component schemas. */
interface PatchableSchema {
  type?: string
  required?: Array<string>
  enum?: Array<string>
  oneOf?: Array<{ readonly properties?: { readonly values?: { items?: unknown } } }>
  properties?: Record<string, unknown>
}
/** One of GitBook's component schemas, to patch where our conventions decide otherwise (one view of the document's JSON). */
const gitbookSchema = (name: string): PatchableSchema | undefined =>
  (gitbookSpec as unknown as { components: { schemas: Record<string, PatchableSchema> } }).components.schemas[name]

// GitBook's PlainObject (visitor segment claims) lists an object schema without `type: "object"` among
// string, boolean and number in a `oneOf`, so any primitive value matches two alternatives and fails.
// Its clients do not validate; here the object alternative is made an object, as it is meant.
const plainObject = gitbookSchema("PlainObject")
if (plainObject !== undefined) plainObject.type = "object"
// conventions-2.md §2 (which wins over GitBook's schema) answers null where an event lacks a dimension;
// GitBook's SiteInsightsQueryEventsValues allows no null in `values`: here each column's items may be null.
for (const alternative of gitbookSchema("SiteInsightsQueryEventsValues")?.oneOf ?? []) {
  const values = alternative.properties?.values
  if (values?.items !== undefined) values.items = { anyOf: [values.items, { type: "null" }] }
}
// conventions-2.md §4: a SAML provider's fields that are not set are omitted, so a pending provider has
// no ssoURL, entityID or certificate; GitBook's OrganizationSAMLProvider requires them.
const samlProvider = gitbookSchema("OrganizationSAMLProvider")
if (samlProvider?.required !== undefined) {
  samlProvider.required = samlProvider.required.filter((field) => !["ssoURL", "entityID", "certificate"].includes(field))
}
// Decision 7: GitBook's `Translation` model is not served; api.md's translation settings answer at its paths,
// so their successes are not GitBook's shape (their errors still are).
for (const path of ["/orgs/{organizationId}/translations", "/orgs/{organizationId}/translations/{translationId}"]) {
  for (const operation of Object.values(gitbookSpec.paths[path] ?? {})) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (/^2\d\d$/.test(status)) delete (response as { content?: unknown }).content
    }
  }
}
// conventions-2.md §7: integration scopes are GitBook's 17 IntegrationScope values plus the seed's
// `space:views:read` (api.md), which GitBook's enum lacks.
const integrationScope = gitbookSchema("IntegrationScope")
if (integrationScope?.enum !== undefined && !integrationScope.enum.includes("space:views:read")) {
  integrationScope.enum = [...integrationScope.enum, "space:views:read"]
}
// conventions-2.md §8: a space's GitSyncState takes `installationProvider` from the caller's `gitInfo.provider`
// (any text), and has none until one was given; GitBook's schema requires one of its providers.
const gitSyncState = gitbookSchema("GitSyncState")
if (gitSyncState?.required !== undefined) gitSyncState.required = gitSyncState.required.filter((field) => field !== "installationProvider")
if (gitSyncState?.properties !== undefined) gitSyncState.properties["installationProvider"] = { type: "string" }
ajv.addSchema(gitbookSpec as object, SPEC_ID)

/** Where each schema object sits in GitBook's document, to name the rule an error broke. */
const locations: ReadonlyMap<object, string> = (() => {
  const found = new Map<object, string>()
  const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1")
  const visit = (value: unknown, pointer: string) => {
    if (typeof value !== "object" || value === null || found.has(value)) return
    found.set(value, pointer)
    for (const [key, child] of Object.entries(value)) visit(child, `${pointer}/${escape(key)}`)
  }
  visit(gitbookSpec, "#")
  return found
})()

const resolveResponse = (response: ResponseObject): { readonly object: ResponseObject; readonly pointer: string } | undefined => {
  if (response.$ref === undefined) return { object: response, pointer: locations.get(response) ?? "#" }
  const pointer = response.$ref
  const target = pointer.slice(2).split("/").reduce<unknown>(
    (node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, "/").replace(/~0/g, "~")],
    gitbookSpec
  )
  return target === undefined ? undefined : { object: target as ResponseObject, pointer }
}

const validators = new Map<string, ValidateFunction>()

/** GitBook's response schema at a pointer into its document, compiled once. */
const validatorAt = (pointer: string): ValidateFunction => {
  const cached = validators.get(pointer)
  if (cached !== undefined) return cached
  const compiled = ajv.compile({ $ref: `${SPEC_ID}${pointer}` })
  validators.set(pointer, compiled)
  return compiled
}

const ruleOf = (error: ErrorObject): string => {
  const where = (typeof error.parentSchema === "object" && locations.get(error.parentSchema)) || error.schemaPath
  const detail = error.keyword === "additionalProperties"
    ? ` '${String(error.params["additionalProperty"])}'`
    : error.keyword === "enum"
    ? ` ${JSON.stringify(error.params["allowedValues"])}`
    : ""
  return `${error.keyword}: ${error.message ?? ""}${detail} (${where}/${error.keyword})`
}

interface Found {
  readonly pointer: string
  readonly rule: string
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const unescape = (key: string) => key.replace(/~1/g, "/").replace(/~0/g, "~")

/** The part of `instance` at a JSON pointer relative to it. */
const instanceAt = (instance: unknown, pointer: string): unknown =>
  pointer === "" ? instance : pointer.slice(1).split("/").reduce<unknown>(
    (node, key) => (Array.isArray(node) || isObject(node) ? (node as Record<string, unknown>)[unescape(key)] : undefined),
    instance
  )

const isWithin = (pointer: string, root: string) => pointer === root || pointer.startsWith(`${root}/`)

/** A schema's own rules without its alternatives, its `$ref`s made absolute, compiled once (undefined when it has none). */
const siblingsValidator = (pointer: string, schema: Record<string, unknown>): ValidateFunction | undefined => {
  const key = `${pointer}#siblings`
  if (validators.has(key)) return validators.get(key)
  const absolute = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(absolute)
      : isObject(value)
      ? Object.fromEntries(
        Object.entries(value).map((
          [k, v]
        ) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#") ? `${SPEC_ID}${v}` : absolute(v)])
      )
      : value
  const { anyOf: _anyOf, discriminator: _discriminator, oneOf: _oneOf, ...rest } = schema
  const rules = Object.keys(rest).filter((k) => !["description", "title", "example", "type"].includes(k) && !k.startsWith("x-"))
  const compiled = rules.length === 0 ? undefined : ajv.compile(absolute(rest) as object)
  if (compiled !== undefined) validators.set(key, compiled)
  return compiled
}

/** A mismatch found in a body, relative to where the explanation started, with the ajv keyword it broke. */
interface Explained extends Found {
  readonly keyword: string
}

const depthOf = (pointer: string) => pointer === "" ? 0 : pointer.split("/").length - 1

/**
 * An instance's mismatches against a compiled schema, with pointers relative to the instance. When
 * it matches none of a `oneOf`/`anyOf`'s alternatives, ajv reports every alternative's errors; this
 * keeps the closest alternative's only, itself explained the same way, so that a document of blocks
 * does not answer hundreds of lines for one missing field. The closest: the one whose type or kind
 * (`type`, `object`…) is right, then the one that matched deepest into the body, then the one with
 * the fewest mismatches.
 */
const explain = (validate: ValidateFunction, instance: unknown): Array<Explained> => {
  if (validate(instance)) return []
  let errors: ReadonlyArray<ErrorObject> = [...(validate.errors ?? [])]
  const found: Array<Explained> = []
  const at = (prefix: string) => (e: Explained): Explained => ({ ...e, pointer: `${prefix}${e.pointer}` })
  for (;;) {
    const choices = errors.filter((e) =>
      (e.keyword === "oneOf" || e.keyword === "anyOf") && isObject(e.parentSchema) && locations.has(e.parentSchema)
    )
    // The outermost choice: the shallowest, and of those at one place the last reported (ajv reports a choice after its alternatives).
    const choice = choices.reduce<ErrorObject | undefined>(
      (best, e) => best === undefined || depthOf(e.instancePath) <= depthOf(best.instancePath) ? e : best,
      undefined
    )
    if (choice === undefined) break
    const place = choice.instancePath
    const schema = choice.parentSchema as Record<string, unknown>
    const pointer = locations.get(schema) ?? ""
    const alternatives = (schema[choice.keyword] as ReadonlyArray<unknown> | undefined) ?? []
    const sub = instanceAt(instance, place)
    const siblings = siblingsValidator(pointer, schema)
    if (siblings !== undefined) found.push(...explain(siblings, sub).map(at(place)))
    const scored = alternatives.map((alternative, i) => {
      const alternativePointer = `${pointer}/${choice.keyword}/${i}`
      const explained = explain(validatorAt(alternativePointer), sub)
      const wrong = explained.filter((e) =>
        (e.keyword === "type" && e.pointer === "") || ((e.keyword === "enum" || e.keyword === "const") && depthOf(e.pointer) === 1)
      ).length
      const deepest = Math.max(
        0,
        ...explained.map((e) =>
          depthOf(e.pointer)
        )
      )
      const name = isObject(alternative) && typeof alternative["$ref"] === "string" ? alternative["$ref"] : alternativePointer
      return { explained, name, score: [wrong, -deepest, explained.length] as const }
    })
    const compare = (a: typeof scored[number], b: typeof scored[number]) =>
      a.score[0] - b.score[0] || a.score[1] - b.score[1] || a.score[2] - b.score[2]
    const closest = scored.reduce<typeof scored[number] | undefined>(
      (best, s) => best === undefined || compare(s, best) < 0 ? s : best,
      undefined
    )
    // Alternatives as close as the closest are named too; the rules that follow are the first one's.
    const tied = scored.filter((s) => closest !== undefined && s !== closest && compare(s, closest) === 0)
    const notes = [
      ...(tied.length === 0 ? [] : [` (as close: ${tied.map((s) => s.name).join(", ")})`]),
      ...(closest !== undefined && closest.score[0] > 0 ? [" (none takes its type or kind)"] : [])
    ].join("")
    found.push({
      pointer: place,
      keyword: choice.keyword,
      rule: `${choice.keyword}: matches none of its ${alternatives.length} shapes; the closest is ${
        closest?.name ?? "none"
      }${notes} (${pointer}/${choice.keyword})`
    })
    if (closest !== undefined) found.push(...closest.explained.map(at(place)))
    errors = errors.filter((e) => !isWithin(e.instancePath, place))
  }
  return [...found, ...errors.map((error) => ({ pointer: error.instancePath, keyword: error.keyword, rule: ruleOf(error) }))]
}

const hasJsonBody = (response: ResponseObject | undefined): boolean =>
  response !== undefined && resolveResponse(response)?.object.content?.["application/json"]?.schema !== undefined

/**
 * The documented answer a status is checked against: its own; for another success, GitBook's 200
 * (or its other documented success with a body: the client takes any 2xx); for another error, `default`.
 */
const documentedFor = (operation: GitBookOperation, status: number): ResponseObject | undefined => {
  const exact = operation.responses[String(status)]
  if (exact !== undefined) return exact
  if (status >= 200 && status < 300) {
    const successes = Object.keys(operation.responses).filter((key) => /^2\d\d$/.test(key)).sort()
    const withBody = successes.filter((key) => hasJsonBody(operation.responses[key]))
    const chosen = withBody.includes("200") ? "200" : withBody[0]
    return chosen === undefined ? undefined : operation.responses[chosen]
  }
  return status >= 400 ? operation.responses["default"] : undefined
}

/**
 * What is wrong with one answer, as GitBook's client would read it: `body` is the parsed JSON,
 * `undefined` when the answer had none. Nothing when GitBook has no such operation or documents
 * no JSON body for that status.
 */
export const checkAnswer = (method: string, path: string, status: number, body: unknown): ReadonlyArray<Mismatch> => {
  const operation = matchOperation(method, path)
  if (operation === undefined) return []
  const documented = documentedFor(operation, status)
  const resolved = documented === undefined ? undefined : resolveResponse(documented)
  const media = resolved?.object.content?.["application/json"]
  if (resolved === undefined || media?.schema === undefined) return []
  const name = describeOperation(operation)
  if (body === undefined) {
    return [{
      operation: name,
      status,
      pointer: "",
      rule: `body: GitBook answers a JSON body here, which its client parses; Octavo answered none (${resolved.pointer})`
    }]
  }
  const validate = validatorAt(`${resolved.pointer}/content/application~1json/schema`)
  return explain(validate, body).map(({ pointer, rule }) => ({ operation: name, status, pointer, rule }))
}

const collected = new Map<string, Mismatch>()

/** Records an answer's mismatches, once each; array positions aside, a mismatch seen again is the same one. */
export const recordAnswer = (method: string, path: string, status: number, body: unknown): void => {
  for (const mismatch of checkAnswer(method, path, status, body)) {
    const key = `${mismatch.operation}|${mismatch.status}|${mismatch.pointer.replace(/\/\d+(?=\/|$)/g, "/*")}|${mismatch.rule}`
    if (!collected.has(key)) collected.set(key, mismatch)
  }
}

/**
 * `fetch`, with each JSON answer recorded like the harness's: for clients that make their own
 * requests (GitBook's official client takes it as `serviceBinding: { fetch }`).
 */
export const checkedFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  const response = await fetch(request)
  const text = await response.clone().text()
  const json = (response.headers.get("content-type") ?? "").includes("json")
  recordAnswer(request.method, new URL(request.url).pathname, response.status, text === "" ? undefined : json ? JSON.parse(text) : text)
  return response
}

/** The mismatches recorded so far, emptied. */
export const takeMismatches = (): ReadonlyArray<Mismatch> => {
  const all = [...collected.values()]
  collected.clear()
  return all
}

export const formatMismatches = (mismatches: ReadonlyArray<Mismatch>): string =>
  mismatches.map((m) => `- ${m.operation} → ${m.status} at '${m.pointer}': ${m.rule}`).join("\n")
