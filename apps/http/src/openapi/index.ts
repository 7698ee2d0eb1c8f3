import { OctavoBase } from "../shared/Contract.js"
import { OpenAPIApi } from "./OpenAPIApi.js"
import { OpenAPILive } from "./OpenAPIHandlers.js"

export { MAX_SPEC_BODY_BYTES, specBodyRoutes } from "./BodyLimit.js"

/** OpenAPI specs over HTTP: specs per organization and their versions. */
export const OpenAPIGroups = OctavoBase.add(OpenAPIApi)
export const OpenAPIHandlers = OpenAPILive
