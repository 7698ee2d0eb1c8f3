import { MemberRole, SamlProvider, SamlProviderStatus } from "@octavo/domain"
import { Schema } from "effect"
import { TeamObject } from "../organizations/Wire.js"

// Wire shapes of GitBook's `OrganizationSAMLProvider`, `OrganizationSSOProviderLogin` and `Subdomain`.

/** Where the browser flow of a provider lives (reserved routes, conventions-2.md §4). */
const ServiceObject = Schema.Struct({ acsURL: Schema.String, startURL: Schema.String, entityID: Schema.String })

export const SamlProviderObject = Schema.Struct({
  object: Schema.Literal("saml-provider"),
  ...SamlProvider.pick("id", "label", "ssoURL", "entityID", "certificate").fields,
  defaultTeam: Schema.optional(TeamObject),
  defaultRole: MemberRole,
  createdAt: Schema.Date,
  status: SamlProviderStatus,
  service: ServiceObject,
  urls: Schema.Struct({ location: Schema.String })
}).annotations({ identifier: "OrganizationSAMLProvider" })

export const SsoLoginObject = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  startURL: Schema.String
}).annotations({ identifier: "OrganizationSSOProviderLogin" })

export const SsoLoginsObject = Schema.Struct({ items: Schema.Array(SsoLoginObject) })

export const SubdomainObject = Schema.Struct({
  object: Schema.Literal("subdomain"),
  subdomain: Schema.String,
  target: Schema.Struct({ type: Schema.Literal("organization"), organization: Schema.String }),
  isActive: Schema.Boolean
}).annotations({ identifier: "Subdomain" })
