import { Layer } from "effect"
import { OpenAPISpecs } from "./OpenAPISpecService.js"
import { OpenAPISpecVersions } from "./OpenAPISpecVersionService.js"
import { OpenAPISpecWorker } from "./OpenAPISpecWorkerService.js"

export * from "./Lists.js"
export * from "./OpenAPISpec.js"
export * from "./OpenAPISpecService.js"
export * from "./OpenAPISpecVersionService.js"
export * from "./OpenAPISpecWorkerService.js"
export * from "./Policy.js"
export * from "./Ports.js"
export * from "./Process.js"

/** The openapi context's use cases: specs per organization, their versions, and the worker that fetches URL specs. */
export const OpenAPIServices = Layer.merge(OpenAPISpecs.Default, OpenAPISpecVersions.Default).pipe(
  Layer.provideMerge(OpenAPISpecWorker.Default)
)

/** The openapi context's part of the domain (the list in ../Contexts.ts). */
export const OpenAPIContext = { services: OpenAPIServices }
