import * as OpenApi from "@effect/platform/OpenApi"
import { CommentsGroups } from "./comments/index.js"
import { ContentGroups } from "./content/index.js"
import { HealthGroups } from "./health/index.js"
import { IdentityGroups } from "./identity/index.js"
import { ImportsGroups } from "./imports/index.js"
import { OrganizationsGroups } from "./organizations/index.js"
import { SearchGroups } from "./search/index.js"
import { OctavoBase, requestBodiesAcceptUnknownProperties } from "./shared/Contract.js"
import { InternalError, PayloadTooLarge, TooManyRequests } from "./shared/Errors.js"
import { SitesGroups } from "./sites/index.js"
import { InsightsGroups } from "./insights/index.js"
import { OpenAPIGroups } from "./openapi/index.js"
import { IntegrationsGroups } from "./integrations/index.js"
import { SpacesGroups } from "./spaces/index.js"
import { SsoGroups } from "./sso/index.js"
import { TranslationsGroups } from "./translations/index.js"
import { GitSyncGroups } from "./gitsync/index.js"

/**
 * The whole API: one line per context, in the contexts' order. Each endpoint declares its own
 * errors; a body over the limit (413), a rate limit (429) and a fault of the server (500) can answer any request.
 */
export class OctavoApi extends OctavoBase
  .addHttpApi(HealthGroups)
  .addHttpApi(IdentityGroups)
  .addHttpApi(OrganizationsGroups)
  .addHttpApi(SpacesGroups)
  .addHttpApi(ContentGroups)
  .addHttpApi(SearchGroups)
  .addHttpApi(ImportsGroups)
  .addHttpApi(CommentsGroups)
  .addHttpApi(SitesGroups)
  .addHttpApi(InsightsGroups)
  .addHttpApi(SsoGroups)
  .addHttpApi(TranslationsGroups)
  .addHttpApi(OpenAPIGroups)
  .addHttpApi(IntegrationsGroups)
  .addHttpApi(GitSyncGroups)
  .addError(PayloadTooLarge)
  .addError(TooManyRequests)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Octavo API")
  .annotate(OpenApi.Description, "Self-hostable documentation content management, compatible with GitBook API clients")
  .annotate(OpenApi.Transform, requestBodiesAcceptUnknownProperties)
{}
