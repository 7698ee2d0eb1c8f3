/** The part of JSON Schema that the API's OpenAPI document uses, as the fuzzer reads it. */
export interface JsonSchema {
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: JsonSchema | boolean
  /** A record's keys: the API names them by `enum` (the languages of a localized text). */
  readonly propertyNames?: JsonSchema
  readonly items?: JsonSchema
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly $ref?: string
  readonly minLength?: number
  readonly maxLength?: number
  readonly minItems?: number
  readonly maxItems?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly format?: string
  readonly pattern?: string
  readonly description?: string
}

export interface Parameter {
  readonly name: string
  readonly required: boolean
  readonly schema: JsonSchema
}

/** One operation of the served document: what a request to it is made of. */
export interface Operation {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** As the document writes it: `/v1/orgs/{organizationId}`. */
  readonly path: string
  readonly pathParams: ReadonlyArray<string>
  readonly query: ReadonlyArray<Parameter>
  readonly body: JsonSchema | undefined
}

interface Document {
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  readonly components?: { readonly schemas?: Readonly<Record<string, JsonSchema>> }
}

interface RawOperation {
  readonly parameters?: ReadonlyArray<
    { readonly name: string; readonly in: string; readonly required?: boolean; readonly schema?: JsonSchema }
  >
  readonly requestBody?: { readonly content?: Readonly<Record<string, { readonly schema?: JsonSchema }>> }
}

const methods = ["get", "post", "put", "patch", "delete"] as const

/** Every operation of an OpenAPI document, with `$ref`s to its components resolved. */
export const operationsOf = (document: Document): ReadonlyArray<Operation> => {
  const components = document.components?.schemas ?? {}
  const resolve = (schema: JsonSchema): JsonSchema => {
    const name = schema.$ref?.replace("#/components/schemas/", "")
    return name === undefined ? schema : resolve(components[name] ?? {})
  }
  /** Resolves every reference inside a schema; the API's body schemas are not recursive. */
  const inline = (schema: JsonSchema): JsonSchema => {
    const s = resolve(schema)
    return {
      ...s,
      ...(s.properties === undefined
        ? {}
        : { properties: Object.fromEntries(Object.entries(s.properties).map(([key, value]) => [key, inline(value)])) }),
      ...(s.items === undefined ? {} : { items: inline(s.items) }),
      ...(s.anyOf === undefined ? {} : { anyOf: s.anyOf.map(inline) }),
      ...(typeof s.additionalProperties === "object" ? { additionalProperties: inline(s.additionalProperties) } : {})
    }
  }
  return Object.entries(document.paths).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const raw = item[method] as RawOperation | undefined
      if (raw === undefined) return []
      const parameters = raw.parameters ?? []
      const body = raw.requestBody?.content?.["application/json"]?.schema
      return [{
        method: method.toUpperCase() as Operation["method"],
        path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        query: parameters.filter((p) => p.in === "query").map((p) => ({
          name: p.name,
          required: p.required === true,
          schema: inline(p.schema ?? {})
        })),
        body: body === undefined ? undefined : inline(body)
      }]
    })
  )
}

export const labelOf = (operation: Operation) => `${operation.method} ${operation.path}`
