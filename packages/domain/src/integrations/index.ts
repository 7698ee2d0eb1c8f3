import { Layer } from "effect"
import { IntegrationInstallations } from "./InstallationService.js"
import { IntegrationPublishing } from "./IntegrationPublishingService.js"
import { Integrations } from "./IntegrationService.js"

export * from "./Images.js"
export * from "./InstallationService.js"
export * from "./Integration.js"
export * from "./IntegrationPublishingService.js"
export * from "./IntegrationService.js"
export type { IntegrationView } from "./IntegrationWork.js"
export * from "./Lists.js"
export * from "./Policy.js"
export * from "./Ports.js"

/** The integrations context's use cases, one service per part of the API: integrations, their publishing, installations. */
export const IntegrationsServices = Layer.mergeAll(Integrations.Default, IntegrationPublishing.Default, IntegrationInstallations.Default)

/** The integrations context's part of the domain (the list in ../Contexts.ts). */
export const IntegrationsContext = { services: IntegrationsServices }
