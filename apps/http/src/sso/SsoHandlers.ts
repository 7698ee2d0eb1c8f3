import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { samlProviderListKey, Sso } from "@octavo/domain"
import { Effect } from "effect"
import { OctavoBase } from "../shared/Contract.js"
import { domain } from "../shared/Errors.js"
import { createdAs, listOf, PublicUrl } from "../shared/Handlers.js"
import { presentSamlProvider, presentSsoLogin, presentSubdomain } from "./Present.js"
import { SsoApi } from "./SsoApi.js"

export const SsoLive = HttpApiBuilder.group(OctavoBase.add(SsoApi), "sso", (handlers) =>
  Effect.gen(function*() {
    const sso = yield* Sso
    const base = yield* PublicUrl
    const present = presentSamlProvider(base)
    const login = presentSsoLogin(base)
    return handlers
      .handle("listProviders", ({ path, urlParams }) =>
        listOf(samlProviderListKey(path.organizationId), urlParams, (page) =>
          sso.list(path.organizationId, page), present))
      .handle("createProvider", ({ path, payload }) =>
        domain(sso.create(path.organizationId, payload)).pipe(Effect.flatMap(createdAs(present))))
      .handle("getProvider", ({ path }) =>
        domain(sso.get(path.organizationId, path.samlProviderId)).pipe(Effect.map(present)))
      .handle("updateProvider", ({ path, payload }) =>
        domain(sso.update(path.organizationId, path.samlProviderId, payload)).pipe(Effect.map(present)))
      .handle("removeProvider", ({ path }) =>
        domain(sso.remove(path.organizationId, path.samlProviderId)))
      .handle("logins", ({ path }) =>
        domain(sso.logins(path.organizationId)).pipe(Effect.map((logins) => ({ items: logins.map(login) }))))
      .handle("subdomain", ({ path }) =>
        domain(sso.subdomain(path.subdomain)).pipe(Effect.map(presentSubdomain)))
  }))
