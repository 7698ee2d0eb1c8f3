import * as OpenApi from "@effect/platform/OpenApi"
import { withContextGroups } from "./Contexts.js"
import { OctavoBase, requestBodiesAcceptUnknownProperties } from "./shared/Contract.js"
import { InternalError, PayloadTooLarge, TooManyRequests } from "./shared/Errors.js"

/**
 * The whole API: every context's groups (Contexts.ts), in the contexts' order. Each endpoint declares its own
 * errors; a body over the limit (413), a rate limit (429) and a fault of the server (500) can answer any request.
 */
export class OctavoApi extends withContextGroups(OctavoBase)
  .addError(PayloadTooLarge)
  .addError(TooManyRequests)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Octavo API")
  .annotate(OpenApi.Description, "Self-hostable documentation content management, compatible with GitBook API clients")
  .annotate(OpenApi.Transform, requestBodiesAcceptUnknownProperties)
{}
