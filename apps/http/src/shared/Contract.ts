import * as HttpApi from "@effect/platform/HttpApi"
import { Schema } from "effect"

/**
 * The API every context's groups belong to, declaring no errors of its own. `HttpApi.make` declares
 * its HttpApiDecodeError on every endpoint; ours answer input that does not decode with Error400
 * (the server's ErrorBodies), which each endpoint that decodes input declares.
 */
/** A route whose bodies may be larger than the server's default (2 MiB), with its limit. */
export interface BodyLimit {
  readonly method: string
  readonly path: RegExp
  readonly maxBytes: number
}

export const OctavoBase: HttpApi.HttpApi<"octavo"> = Object.assign(HttpApi.make("octavo"), {
  errorSchema: Schema.Never
}) as unknown as HttpApi.HttpApi<"octavo">

type Json = unknown

const isObject = (value: Json): value is Record<string, Json> => typeof value === "object" && value !== null

/**
 * Request bodies take properties they do not name and ignore them (Schema's decoding drops excess
 * properties), as GitBook's do; the generated document claims `additionalProperties: false` on every
 * struct. This removes that claim from each request body's schema and every component it refers to,
 * but for a schema with an `$id` of its own: JSON that the domain checks key by key, stated by hand as it
 * is checked (a site's adaptive schema refuses other keys at every level).
 */
export const requestBodiesAcceptUnknownProperties = (spec: Record<string, Json>): Record<string, Json> => {
  const document = structuredClone(spec)
  const components = isObject(document["components"]) && isObject(document["components"]["schemas"])
    ? document["components"]["schemas"]
    : {}
  const visited = new Set<Json>()
  const open = (schema: Json): void => {
    if (!isObject(schema) && !Array.isArray(schema)) return
    if (visited.has(schema)) return
    visited.add(schema)
    if (Array.isArray(schema)) return schema.forEach(open)
    if (typeof schema["$id"] === "string") return
    if (schema["additionalProperties"] === false) delete schema["additionalProperties"]
    const ref = schema["$ref"]
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) open(components[ref.slice("#/components/schemas/".length)])
    Object.values(schema).forEach(open)
  }
  const paths = isObject(document["paths"]) ? Object.values(document["paths"]) : []
  for (const operations of paths) {
    if (!isObject(operations)) continue
    for (const operation of Object.values(operations)) {
      if (isObject(operation)) open(operation["requestBody"])
    }
  }
  return document
}
