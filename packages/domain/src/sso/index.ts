import { SsoProvidersAnswer } from "./ForOrganizations.js"
import { Sso } from "./SsoService.js"

export * from "./ForOrganizations.js"
export * from "./Lists.js"
export * from "./Ports.js"
export * from "./SamlProvider.js"
export * from "./SsoService.js"

/** The sso context's use cases: SAML providers, sign-in providers, subdomains. Needs `Certificates`. */
export const SsoServices = Sso.Default

/** The port of an earlier context that sso answers: whether an organization may enforce SSO. */
export const SsoAnswers = SsoProvidersAnswer

/** The sso context's part of the domain (the list in ../Contexts.ts). */
export const SsoContext = { services: SsoServices, answers: SsoAnswers }
