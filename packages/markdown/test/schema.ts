// GitBook's `JSONDocument` schema from its OpenAPI, compiled with Ajv (JSON Schema 2020-12, as OpenAPI 3.1 is).
import { readFileSync } from "node:fs"
import { Ajv2020 } from "ajv/dist/2020.js"

const spec = JSON.parse(
  readFileSync(new URL("../../../apps/http/node_modules/@gitbook/api/spec/openapi.json", import.meta.url), "utf8")
) as {
  readonly components: unknown
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false })
ajv.addSchema({ $id: "gitbook", components: spec.components })

export const validateDocument = ajv.compile({ $ref: "gitbook#/components/schemas/JSONDocument" })

/** The schema's complaints about a document, or [] when it is valid. */
export const schemaErrors = (document: unknown): Array<string> =>
  validateDocument(document) ? [] : (validateDocument.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ""}`)
