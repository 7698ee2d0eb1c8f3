import { Layer } from "effect"
import { ChangeRequests } from "./content/ChangeRequestService.js"
import { Content } from "./content/ContentService.js"
import { Imports } from "./imports/ImportService.js"
import { Search } from "./search/SearchService.js"
import { Identity } from "./identity/IdentityService.js"
import { Invites } from "./organizations/InviteService.js"
import { Members } from "./organizations/MemberService.js"
import { Organizations } from "./organizations/OrganizationService.js"
import { Teams } from "./organizations/TeamService.js"
import { SecretsLive } from "./shared/Secrets.js"
import { CustomFields } from "./spaces/CustomFieldService.js"
import { Spaces } from "./spaces/SpaceService.js"

/** Every use case of the domain, over the storage ports an adapter provides. */
export const DomainServices = Layer.mergeAll(
  Identity.Default,
  Organizations.Default,
  Members.Default,
  Teams.Default,
  Invites.Default,
  Spaces.Default,
  CustomFields.Default,
  Content.Default,
  ChangeRequests.Default,
  Search.Default
).pipe(Layer.provide(SecretsLive))

/** Importing content from elsewhere: the domain's use cases plus an outbound `WebFetcher`. */
export const ImportServices = Imports.Default.pipe(Layer.provide(SecretsLive))
