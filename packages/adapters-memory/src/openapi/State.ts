import type { OpenAPISpec, OpenAPISpecVersion } from "@octavo/domain"
import { HashMap } from "effect"
import { slice } from "../shared/index.js"

/** What the openapi context keeps in memory. */
export const OpenAPIState = slice("@octavo/adapters-memory/openapi", {
  /** By spec id. */
  specs: HashMap.empty<string, OpenAPISpec>(),
  /** By version id, with the text. */
  versions: HashMap.empty<string, { readonly version: OpenAPISpecVersion; readonly text: string }>()
})
