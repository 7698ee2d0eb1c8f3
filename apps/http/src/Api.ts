import { HttpApi, OpenApi } from "@effect/platform"
import { ChangeRequestsApi } from "./api/ChangeRequestsApi.js"
import { CollectionsApi } from "./api/CollectionsApi.js"
import { ContentApi } from "./api/ContentApi.js"
import { CustomFieldsApi } from "./api/CustomFieldsApi.js"
import { ImportApi } from "./api/ImportApi.js"
import { SearchApi } from "./api/SearchApi.js"
import { SpacesApi } from "./api/SpacesApi.js"
import { BadRequest, Conflict, Forbidden, InternalError, NotFound, PayloadTooLarge, PreconditionFailed, Unauthorized } from "./api/Errors.js"
import { HealthApi } from "./api/HealthApi.js"
import { InvitesApi } from "./api/InvitesApi.js"
import { MembersApi } from "./api/MembersApi.js"
import { OrganizationsApi } from "./api/OrganizationsApi.js"
import { TeamsApi } from "./api/TeamsApi.js"
import { UsersApi } from "./api/UsersApi.js"

export class OctavoApi extends HttpApi.make("octavo")
  .add(HealthApi)
  .add(UsersApi)
  .add(OrganizationsApi)
  .add(MembersApi)
  .add(TeamsApi)
  .add(InvitesApi)
  .add(CollectionsApi)
  .add(SpacesApi)
  .add(CustomFieldsApi)
  .add(ContentApi)
  .add(ChangeRequestsApi)
  .add(SearchApi)
  .add(ImportApi)
  .addError(BadRequest)
  .addError(Unauthorized)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(Conflict)
  .addError(PreconditionFailed)
  .addError(PayloadTooLarge)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Octavo API")
  .annotate(OpenApi.Description, "Self-hostable documentation content management, compatible with GitBook API clients")
{}
