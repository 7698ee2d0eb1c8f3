import { OctavoBase } from "../shared/Contract.js"
import { OpenAPIApi } from "./OpenAPIApi.js"
import { OpenAPILive } from "./OpenAPIHandlers.js"
import { ProcessOpenAPISpecs } from "./Jobs.js"

import { specBodyRoutes } from "./BodyLimit.js"

export { MAX_SPEC_BODY_BYTES, specBodyRoutes } from "./BodyLimit.js"

/** OpenAPI specs over HTTP: specs per organization and their versions. */
export const OpenAPIGroups = OctavoBase.add(OpenAPIApi)
export const OpenAPIHandlers = OpenAPILive

/** The openapi context's part of the HTTP API (the list in ../Contexts.ts). */
export const OpenAPIHttp = {
  groups: OpenAPIGroups,
  handlers: OpenAPIHandlers,
  jobs: [ProcessOpenAPISpecs],
  bodyLimits: specBodyRoutes
}
