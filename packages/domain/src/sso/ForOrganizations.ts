import { Effect, Layer } from "effect"
import { SsoProviders } from "../organizations/Ports.js"
import { SamlProviderRepository } from "./Ports.js"

/** Whether an organization may enforce SSO: it has an active provider, held until its unit of work ends. */
export const SsoProvidersAnswer = Layer.effect(
  SsoProviders,
  Effect.map(SamlProviderRepository, (providers) =>
    SsoProviders.of({
      hasActive: (organizationId) =>
        providers.lockOrganization(organizationId).pipe(
          Effect.zipRight(providers.active(organizationId)),
          Effect.map((active) => active.length > 0)
        )
    }))
)
