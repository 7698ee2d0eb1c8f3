import type { SamlProviderView, SsoLogin, SubdomainTarget } from "@octavo/domain"
import { organizationLocation, presentTeam } from "../organizations/Present.js"
import type { SamlProviderObject, SsoLoginObject, SubdomainObject } from "./Wire.js"

/** The reserved routes of a provider's browser flow: `{base}/sso/saml/{id}/…`. */
const serviceOf = (base: string, id: string) => {
  const root = `${base}/sso/saml/${encodeURIComponent(id)}`
  return { entityID: `${root}/metadata`, acsURL: `${root}/acs`, startURL: `${root}/start` }
}

export const samlProviderLocation = (base: string, organizationId: string, id: string) =>
  `${organizationLocation(base, organizationId)}/saml/${id}`

export const presentSamlProvider = (base: string) => ({ defaultTeam, provider: p }: SamlProviderView): typeof SamlProviderObject.Type => ({
  object: "saml-provider",
  id: p.id,
  label: p.label,
  ...(p.ssoURL !== undefined ? { ssoURL: p.ssoURL } : {}),
  ...(p.entityID !== undefined ? { entityID: p.entityID } : {}),
  ...(p.certificate !== undefined ? { certificate: p.certificate } : {}),
  ...(defaultTeam !== undefined ? { defaultTeam: presentTeam(defaultTeam) } : {}),
  defaultRole: p.defaultRole,
  createdAt: p.createdAt,
  status: p.status,
  service: serviceOf(base, p.id),
  urls: { location: samlProviderLocation(base, p.organizationId, p.id) }
})

export const presentSsoLogin = (base: string) => (login: SsoLogin): typeof SsoLoginObject.Type => ({
  id: login.id,
  label: login.label,
  startURL: serviceOf(base, login.id).startURL
})

export const presentSubdomain = (target: SubdomainTarget): typeof SubdomainObject.Type => ({
  object: "subdomain",
  subdomain: target.subdomain,
  target: { type: "organization", organization: target.organizationId },
  isActive: true
})
