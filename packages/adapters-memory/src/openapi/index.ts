import type { OpenAPIPorts } from "@octavo/domain"
import { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemoryOpenAPISpecRepository, MemoryOpenAPISpecVersionRepository } from "./Repositories.js"

export { OpenAPIState } from "./State.js"

/** The openapi context's storage, in memory. */
export const MemoryOpenAPI: Layer.Layer<OpenAPIPorts, never, MemoryStore> = Layer.merge(
  MemoryOpenAPISpecRepository,
  MemoryOpenAPISpecVersionRepository
)
