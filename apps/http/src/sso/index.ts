import { OctavoBase } from "../shared/Contract.js"
import { SsoApi } from "./SsoApi.js"
import { SsoLive } from "./SsoHandlers.js"

/** SSO over HTTP: SAML providers, the providers members sign in with, and subdomains. */
export const SsoGroups = OctavoBase.add(SsoApi)
export const SsoHandlers = SsoLive

/** The sso context's part of the HTTP API (the list in ../Contexts.ts). */
export const SsoHttp = {
  groups: SsoGroups,
  handlers: SsoHandlers
}
