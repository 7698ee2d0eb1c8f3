import { OpenAPISpecs } from "./OpenAPISpecService.js"

export * from "./Lists.js"
export * from "./OpenAPISpec.js"
export * from "./OpenAPISpecService.js"
export * from "./Policy.js"
export * from "./Ports.js"
export * from "./Process.js"

/** The openapi context's use cases: specs per organization, their versions, and the worker that fetches URL specs. */
export const OpenAPIServices = OpenAPISpecs.Default

/** The openapi context's part of the domain (the list in ../Contexts.ts). */
export const OpenAPIContext = { services: OpenAPIServices }
