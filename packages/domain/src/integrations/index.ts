import { Integrations } from "./IntegrationService.js"

export * from "./Images.js"
export * from "./Integration.js"
export * from "./IntegrationService.js"
export * from "./Lists.js"
export * from "./Policy.js"
export * from "./Ports.js"

/** The integrations context's use cases: publishing, listing and installing integrations. */
export const IntegrationsServices = Integrations.Default

/** The integrations context's part of the domain (the list in ../Contexts.ts). */
export const IntegrationsContext = { services: IntegrationsServices }
