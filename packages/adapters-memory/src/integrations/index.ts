import type { IntegrationsPorts } from "@octavo/domain"
import { Layer } from "effect"
import type { MemoryStore } from "../shared/index.js"
import { MemoryInstallationRepository, MemoryIntegrationRepository } from "./Repositories.js"

export { IntegrationsState } from "./State.js"

/** The integrations context's storage, in memory. */
export const MemoryIntegrations: Layer.Layer<IntegrationsPorts, never, MemoryStore> = Layer.mergeAll(
  MemoryIntegrationRepository,
  MemoryInstallationRepository
)
