import { parseYamlOrJson } from "@octavo/markdown"
import { heavyTask } from "../shared/HeavyWork.js"
import { MAX_PROCESS_ERRORS, type ProcessError, type TextFormat } from "./OpenAPISpec.js"

// Processing of a spec's text (conventions-2.md §5, "Processing"): pure, so a text sent in a request
// and a text fetched by the worker are judged alike.

/** What processing made of a text: its format, or the errors (the first MAX_PROCESS_ERRORS) and how many there were. */
export type Processed =
  | { readonly ok: true; readonly format: TextFormat }
  | { readonly ok: false; readonly errors: ReadonlyArray<ProcessError>; readonly count: number }

type Json = unknown

const isObject = (value: Json): value is Record<string, Json> => typeof value === "object" && value !== null && !Array.isArray(value)

const kindOf = (value: Json): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`

/** Collects errors, keeping the first MAX_PROCESS_ERRORS and counting all. */
const collector = () => {
  const errors: Array<ProcessError> = []
  let count = 0
  return {
    add: (code: string, message: string) => {
      count++
      if (errors.length < MAX_PROCESS_ERRORS) errors.push({ code, message })
    },
    result: (format: TextFormat): Processed => (count === 0 ? { ok: true, format } : { ok: false, errors, count })
  }
}

const escapeToken = (token: string): string => token.replaceAll("~", "~0").replaceAll("/", "~1")
const unescapeToken = (token: string): string => token.replaceAll("~1", "/").replaceAll("~0", "~")

/** Whether a JSON pointer (`/a/b~1c`, unescaped by `~1` and `~0`) names a node of `root`. */
const pointsAtNode = (root: Json, pointer: string): boolean => {
  if (pointer === "") return true
  if (!pointer.startsWith("/")) return false
  let current: Json = root
  for (const raw of pointer.slice(1).split("/")) {
    const token = unescapeToken(raw)
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= current.length) return false
      current = current[Number(token)]
    } else if (isObject(current)) {
      if (!Object.hasOwn(current, token)) return false
      current = current[token]
    } else return false
  }
  return true
}

/**
 * Whether an internal reference (`#/a/b~1c`) names a node of `root`. A fragment is percent-encoded (RFC 6901 §6);
 * one written without encoding (a key holding `%`) is read as written too.
 */
const resolves = (root: Json, ref: string): boolean => {
  const fragment = ref.slice(1)
  let decoded: string | undefined
  try {
    decoded = decodeURIComponent(fragment)
  } catch {
    decoded = undefined
  }
  return (decoded !== undefined && pointsAtNode(root, decoded)) || (decoded !== fragment && pointsAtNode(root, fragment))
}

interface Visit {
  readonly value: Json
  readonly key: string
  readonly parent: Visit | undefined
}

const pointerOf = (visit: Visit): string => {
  const tokens: Array<string> = []
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) tokens.push(escapeToken(at.key))
  return tokens.length === 0 ? "/" : `/${tokens.reverse().join("/")}`
}

/**
 * Every internal `$ref` must resolve; external ones (another file, a URL) are not fetched and not judged. Walked without
 * recursion, each node once: YAML aliases share a node, and walking it per alias would cost up to 100 times the text.
 */
const checkReferences = (root: Json, add: (code: string, message: string) => void) => {
  const pending: Array<Visit> = [{ value: root, key: "", parent: undefined }]
  const walked = new Set<object>()
  while (pending.length > 0) {
    const visit = pending.pop()!
    const value = visit.value
    if (typeof value === "object" && value !== null) {
      if (walked.has(value)) continue
      walked.add(value)
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], key: String(i), parent: visit })
    } else if (isObject(value)) {
      const ref = value["$ref"]
      if (typeof ref === "string" && ref.startsWith("#") && !resolves(root, ref)) {
        add("UNRESOLVED_REF", `$ref "${ref}" at ${pointerOf(visit)} does not resolve`)
      }
      const keys = Object.keys(value)
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!
        pending.push({ value: value[key], key, parent: visit })
      }
    }
  }
}

const requireString = (holder: Record<string, Json>, field: string, path: string, add: (code: string, message: string) => void) => {
  const value = holder[field]
  if (value === undefined) add("MISSING_FIELD", `${path}: is required`)
  else if (typeof value !== "string") add("INVALID_FIELD", `${path}: must be a string, got ${kindOf(value)}`)
}

/**
 * Judges a spec's text: JSON, or YAML 1.2 (core schema, at most 100 aliases); `openapi` 3.0.x or 3.1.x,
 * or `swagger: "2.0"`; `info.title` and `info.version` strings; `paths` (in 3.1, `webhooks` or
 * `components` also do); and every internal `$ref` resolving.
 */
export const processSpecText = (text: string): Processed => {
  const parsed = parseYamlOrJson(text)
  const { add, result } = collector()
  if (!parsed.ok) {
    for (const message of parsed.errors) add("INVALID_SYNTAX", message)
    return result(parsed.format)
  }
  const root = parsed.value
  if (!isObject(root)) {
    add("INVALID_STRUCTURE", `the document must be an object of OpenAPI fields, got ${kindOf(root)}`)
    return result(parsed.format)
  }
  const { openapi, swagger } = root
  let is31 = false
  if (openapi !== undefined) {
    if (typeof openapi !== "string") add("INVALID_VERSION", `openapi: must be a string such as "3.1.0", got ${kindOf(openapi)}`)
    else if (!/^3\.[01]\.\d+$/.test(openapi)) add("INVALID_VERSION", `openapi: must be 3.0.x or 3.1.x, got "${openapi}"`)
    else is31 = openapi.startsWith("3.1.")
  } else if (swagger !== undefined) {
    if (swagger !== "2.0")
      add("INVALID_VERSION", `swagger: must be "2.0", got ${typeof swagger === "string" ? `"${swagger}"` : kindOf(swagger)}`)
  } else {
    add("MISSING_FIELD", "openapi: is required (3.0.x or 3.1.x), or swagger: \"2.0\"")
  }
  const info = root["info"]
  if (info === undefined) add("MISSING_FIELD", "info: is required")
  else if (!isObject(info)) add("INVALID_FIELD", `info: must be an object, got ${kindOf(info)}`)
  else {
    requireString(info, "title", "info.title", add)
    requireString(info, "version", "info.version", add)
  }
  const containers = is31 ? ["paths", "webhooks", "components"] : ["paths"]
  for (const field of containers) {
    const value = root[field]
    if (value !== undefined && !isObject(value)) add("INVALID_FIELD", `${field}: must be an object, got ${kindOf(value)}`)
  }
  if (containers.every((field) => root[field] === undefined)) {
    add("MISSING_FIELD", is31 ? "paths: is required (or webhooks or components, in OpenAPI 3.1)" : "paths: is required")
  }
  checkReferences(root, add)
  return result(parsed.format)
}

/** `processSpecText` as a task of `HeavyWork`: a 10 MiB YAML takes seconds. */
export const processSpecTask = heavyTask("openapi.process", (text: string): Processed => processSpecText(text))
